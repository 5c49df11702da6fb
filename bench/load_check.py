"""The load bench's check afterwards, in the database: every draft a person saved is the one
stored (none lost, none applied twice), every merchant created is there once, and every hold
placed is in the ledger exactly once with the gateway's id.

A person's note of each attempt says what the portal answered: ``saved`` (it redirected: the
person was told it went through), ``refused`` (the form again, with a message) or ``failed``
(an error, or no answer). Only a saved attempt must be found; a refused or failed one may or
may not have been stored (a send the gateway refuses keeps the draft), but never twice."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import Flask
from sqlalchemy import func, select

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.core.models.step import StepDraft

SAVED = "saved"


@dataclass
class Tally:
    """How many of one kind of thing were saved, how many of those the database holds as it
    should, and what is wrong, in words."""

    saved: int = 0
    found: int = 0
    wrong: list[str] = field(default_factory=list)

    def count(self, saved: int, right: bool, problem: str) -> None:
        """Count ``saved`` attempts judged together; a wrong judgement is noted."""
        self.saved += saved
        self.found += saved if right else 0
        if not right:
            self.wrong.append(problem)


@dataclass
class Ledger:
    """The three checks."""

    drafts: Tally
    creates: Tally
    holds: Tally


def check(app: Flask, results: list[dict]) -> Ledger:
    """Look up every note of ``results`` (one per Locust run) in the app's database."""
    drafts: dict[str, list[list[str]]] = {}
    creates, holds = [], []
    for result in results:
        drafts.update(result["drafts"])
        creates += result["creates"]
        holds += result["holds"]
    with app.app_context():
        merchants = _stored(Merchant.display_name, [name for name, _ in creates])
        payments = _stored(Payment.customer_email, [email for email, _ in holds],
                           Payment.gid.is_not(None))
        return Ledger(_drafts(drafts), _once(merchants, creates, "merchant"),
                      _once(payments, holds, "hold"))


def _drafts(notes: dict[str, list[list[str]]]) -> Tally:
    """Per merchant: the stored business draft is its last saved one, or one tried after it
    whose outcome the person does not know; its version counts every save that went through
    (each stored save moves it by one), and no more than were tried."""
    tally = Tally()
    stored = {str(d.merchant_id): d for d in db.session.scalars(select(StepDraft).where(
        StepDraft.step == "business", StepDraft.merchant_id.in_([int(m) for m in notes])))}
    for merchant, attempts in notes.items():
        saved = [i for i, (_, outcome) in enumerate(attempts) if outcome == SAVED]
        if not saved:
            continue
        last = saved[-1]
        draft = stored.get(merchant)
        typed = draft.payload.get("tradeName") if draft else None
        version = draft.version if draft else 0
        allowed = {attempts[last][0]} | {value for value, _ in attempts[last + 1:]}
        tally.count(len(saved), typed in allowed and len(saved) <= version <= len(attempts),
                    f"merchant {merchant}: stored {typed!r} at version {version} after "
                    f"{len(saved)} saves of {len(attempts)} tried, the last saved "
                    f"{attempts[last][0]!r}")
    return tally


def _stored(column, values: list[str], *complete) -> dict[str, tuple[int, int]]:
    """For each of ``values``: the rows whose ``column`` holds it, and of those how many are
    ``complete`` (all of them when no condition is given)."""
    done = func.count().filter(*complete) if complete else func.count()
    rows = db.session.execute(select(column, func.count(), done).where(
        column.in_(values)).group_by(column)).tuples()
    return {value: (count, finished) for value, count, finished in rows}


def _once(stored: dict[str, tuple[int, int]], notes: list[list[str]], what: str) -> Tally:
    """A saved value is stored exactly once, complete; any other at most once."""
    tally = Tally()
    for value, outcome in notes:
        count, complete = stored.get(value, (0, 0))
        right = (count == complete == 1) if outcome == SAVED else count <= 1
        tally.count(outcome == SAVED, right,
                    f"{what} {value!r} ({outcome}): stored {count} times, {complete} complete")
    return tally
