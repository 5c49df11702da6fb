"""Running valid rows with bounded concurrency: a pool of threads, each row in its own app
context (so its own database session and connection); all threads share one gateway client (it
keeps no state between calls, and its transport gives each thread its own HTTP session).

The gateway calls of different rows overlap; each row's database writes stay short, as no
transaction is held across a call: a row commits its new merchant with the create just before
the create is sent, and each step's answer as it arrives (a worker that dies mid-row leaves at
most the step in flight to send again). Rows are read, started and heard in the caller's
thread, so the caller may stop starting rows at any point (rows in flight end).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

from flask import Flask
from sqlalchemy.exc import IntegrityError

from portal.core.clients import onboarding_client
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.storage.base import DocumentStore
from portal.domain.audit.service import Actor
from portal.features.bulk.onboard import RowOutcome, RowState, onboard_row
from portal.features.bulk.parsing import BulkRow
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.retry import RetryPolicy

log = logging.getLogger("portal.bulk")

#: A batch meets 429s and 5xx more than a person does: more, still capped, backoff on PUT/GET.
BULK_RETRY = RetryPolicy(attempts=5, base_delay=0.25, max_delay=4.0)
#: A row's problem when the portal failed on it (the log says why).
FAILED_HERE = "The portal failed on this row; open the merchant to see which steps were sent"
#: A row's problem when its merchant was changed elsewhere (the wizard, another import) while
#: the row was being sent, so its answer could not be stored as it was.
CHANGED_MEANWHILE = ("This merchant was changed elsewhere (in the wizard or another import) "
                     "while its row was being sent; open the merchant to finish it there")


@dataclass
class Summary:
    """Every row's outcome, in file order, and the counts the end of a run reports."""

    outcomes: list[RowOutcome] = field(default_factory=list)

    def count(self, state: RowState) -> int:
        """Rows that ended in ``state``."""
        return sum(1 for o in self.outcomes if o.state is state)

    @property
    def created(self) -> int:
        """Rows whose merchant was created at the gateway in this run."""
        return sum(1 for o in self.outcomes if o.created)

    @property
    def resumed(self) -> int:
        """Rows whose merchant the portal knew already."""
        return sum(1 for o in self.outcomes if o.resumed)

    def counts(self) -> dict[str, int]:
        """The summary's figures by name (LINKED aside: only a later sync moves a row there)."""
        return {"created": self.created, "resumed": self.resumed,
                **{state.value: self.count(state) for state in RowState
                   if state is not RowState.LINKED}}

    def lines(self) -> list[str]:
        """The summary for a terminal: counts, then one line per row not completed."""
        counts = ", ".join(f"{name.replace('_', ' ')} {n}" for name, n in self.counts().items())
        return [f"Rows: {len(self.outcomes)}; {counts}.",
                *(f"row {o.row} ({o.external_id}): {o.state.value.replace('_', ' ')}: "
                  f"{o.reason}" for o in self.outcomes if o.state is not RowState.COMPLETED)]


def run_rows(app: Flask, rows: list[BulkRow], *, concurrency: int, actor: Actor,
             files: DocumentStore | None = None, client: OnboardingClient | None = None,
             on_row: Callable[[RowOutcome], None] | None = None) -> Summary:
    """Onboard ``rows`` as ``actor`` with at most ``concurrency`` at a time; ``on_row`` hears
    each end."""
    outcomes: list[RowOutcome] = []

    def heard(ended: list[RowOutcome]) -> bool:
        for outcome in ended:
            outcomes.append(outcome)
            if on_row is not None:
                on_row(outcome)
        return True

    run_pool(app, rows, heard, concurrency=concurrency, actor=actor, files=files, client=client)
    return Summary(sorted(outcomes, key=lambda o: o.row))


def run_pool(app: Flask, rows: Iterable[BulkRow], heard: Callable[[list[RowOutcome]], bool], *,
             concurrency: int, actor: Actor, files: DocumentStore | None = None,
             client: OnboardingClient | None = None) -> None:
    """Onboard the rows ``rows`` yields as ``actor``, at most ``concurrency`` in flight, in
    their order.

    ``rows`` is read and ``heard`` called in the caller's thread: ``heard`` gets the rows that
    ended since its last call and answers whether to start more; once it says no, the rows in
    flight still end and are heard, and nothing else is read from ``rows``.
    """
    if client is None:
        with app.app_context():
            client = bulk_client()
    shared: OnboardingClient = client

    def work(row: BulkRow) -> RowOutcome:
        with app.app_context():
            return onboard_safely(shared, row, files, actor)

    waiting = iter(rows)
    starting = True
    in_flight: set[Future[RowOutcome]] = set()
    with ThreadPoolExecutor(max_workers=max(1, concurrency),
                            thread_name_prefix="bulk-import") as pool:
        while True:
            while starting and len(in_flight) < max(1, concurrency):
                row = next(waiting, None)
                if row is None:
                    starting = False
                else:
                    in_flight.add(pool.submit(work, row))
            if not in_flight:
                return
            ended, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
            outcomes = sorted((future.result() for future in ended), key=lambda o: o.row)
            starting = heard(outcomes) and starting


def onboard_safely(client: OnboardingClient, row: BulkRow, files: DocumentStore | None,
                   actor: Actor) -> RowOutcome:
    """``onboard_row``, an unexpected error reported as the row's failure (others go on)."""
    try:
        return onboard_row(client, current_settings(), row, files, actor)
    except Exception as exc:  # one broken row must not stop the others
        log.exception("bulk import: row %d failed unexpectedly", row.number)
        db.session.rollback()
        return RowOutcome(row.number, row.external_id, reason=(
            CHANGED_MEANWHILE if isinstance(exc, IntegrityError) else FAILED_HERE))


def bulk_client() -> OnboardingClient:
    """A gateway client with the bulk retry policy."""
    return onboarding_client(current_settings(), retry=BULK_RETRY)
