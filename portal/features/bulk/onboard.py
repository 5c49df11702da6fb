"""Driving one row through steps 1-7 with the wizard's services, resuming where it stopped.

A merchant the portal already knows (same externalOnboardingId) is never created again: its
create is skipped once sent, and so is every step already sent. A create whose outcome is
unknown (its answer lost, or its worker killed during the call and the row taken over) ends the
row as OUTCOME_UNKNOWN: "may or may not have been created", for the wizard's retry or reconcile,
never sent again from here and never counted as done (``portal.features.bulk.settle`` moves it on
once the merchant is linked). Every audit entry a row writes is the importer's (``actor``), in a
worker too. An outcome's reason is in words, PANs masked.

When the gateway asks to slow down (429), a row waits as long as its ``Retry-After`` says (a
second when it names none) and sends the step again, a few times; it is never failed as a
refusal. A wait longer than ``BUSY_MAX_WAIT`` is not waited in the row: the step stays queued
(the outbox sends it when due) and the row reports that.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from pathlib import PurePosixPath
from typing import Any

from sqlalchemy import select

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.label_tables import Kind
from portal.core.labels import label
from portal.core.models.merchant import CreateState, Merchant
from portal.core.models.step import DONE_STATES, StepDraft
from portal.core.redaction import redact_text
from portal.core.storage.base import DocumentStore
from portal.domain.audit.service import Actor
from portal.domain.documents import service as documents
from portal.domain.onboarding.create import (
    outcome_unknown_message,
    reconcile_message,
    start_merchant,
)
from portal.domain.onboarding.drafts import drafts_of
from portal.domain.onboarding.progress import steps_to_do
from portal.domain.onboarding.reconcile import AWAITING
from portal.domain.onboarding.result import StepResult
from portal.domain.onboarding.service import send_saved, send_step
from portal.domain.onboarding.steps import BY_KEY
from portal.domain.ownership.imports import give_to
from portal.features.bulk.columns import OWNER, column_for
from portal.features.bulk.parsing import BulkRow, DocumentCell
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.onboarding.vocabulary import AADHAR_DOC_PATTERN, OnboardingStatus

#: What to do about a row whose create's outcome is unknown (the page links the wizard's step).
UNKNOWN_NEXT = "The sync links it by itself when a webhook names its record."
#: Steps sent after the create and before the documents; products come last.
BEFORE_DOCUMENTS = ("business", "owners", "bank", "signatory")
#: How often a row sends a step again after the gateway asked it to slow down (429).
BUSY_TRIES = 3
#: The longest a row waits before it sends again; the whole row then waits a few minutes at
#: most, well inside a bulk job's lease.
BUSY_MAX_WAIT = 60.0
#: The wait when a 429 names no Retry-After.
BUSY_WAIT = 1.0
#: How a row waits for the gateway (tests pass their own).
Pause = Callable[[float], object]
#: Statuses reached once every section is complete.
COMPLETE_STATUSES = frozenset(OnboardingStatus) - {OnboardingStatus.INITIATED,
                                                    OnboardingStatus.IN_PROGRESS}


class RowState(StrEnum):
    """How a row ended."""

    COMPLETED = "completed"
    AWAITING_DOCUMENTS = "awaiting_documents"
    #: The create was sent and its outcome is unknown: it may or may not have been created.
    OUTCOME_UNKNOWN = "outcome_unknown"
    #: Its create's outcome was unknown, and the merchant has since been linked to its record
    #: (a webhook naming it, or ops in the wizard): its other steps are still to send.
    LINKED = "linked"
    FAILED = "failed"


@dataclass
class RowOutcome:
    """What happened to one row."""

    row: int
    external_id: str
    state: RowState = RowState.FAILED
    created: bool = False
    resumed: bool = False
    merchant_id: int | None = None
    status: str | None = None
    reason: str = ""

    def as_json(self) -> dict[str, Any]:
        """The outcome as the job record keeps it."""
        return {"row": self.row, "externalOnboardingId": self.external_id,
                "state": self.state.value, "created": self.created, "resumed": self.resumed,
                "merchantId": self.merchant_id, "status": self.status, "reason": self.reason}


def onboard_row(client: OnboardingClient, settings: Settings, row: BulkRow,
                files: DocumentStore | None, actor: Actor,
                pause: Pause = clock.pause) -> RowOutcome:
    """Send the row's steps not yet sent, as ``actor``; documents too when ``files`` is where
    they are (the CSV's folder, or the import's copy of its ZIP); ``pause(seconds)`` waits
    when the gateway asks to slow down. The owner the row names is given the merchant."""
    merchant = db.session.scalar(select(Merchant).where(
        Merchant.external_onboarding_id == row.external_id))
    outcome = RowOutcome(row.number, row.external_id, resumed=merchant is not None)
    owner = str(row.forms["create"].pop(OWNER, "") or "")  # the portal's, never in a draft
    if merchant is None:
        # stored with the create, just before it is sent
        merchant, errors = start_merchant(row.forms["create"], actor=actor, commit=False)
        if merchant is None:
            outcome.reason = redact_text("; ".join(e.message for e in errors))
            return outcome
    outcome.merchant_id = merchant.id
    if owner.strip():
        give_to(merchant, owner, actor)
        db.session.commit()  # with the merchant just started: a row with nothing to send too
    # a merchant started here has no step drafts but step 1's: nothing to read back
    drafts = drafts_of(merchant) if outcome.resumed else {}
    sender = _Sender(client, merchant, row, actor, pause)
    failure = _create(sender, outcome) or sender.steps(drafts, BEFORE_DOCUMENTS)
    if not failure and files is not None:
        failure = _documents(sender, settings, files)
    failure = failure or sender.steps(drafts, ("products",))
    return _finish(outcome, merchant, failure)


def patiently(send: Callable[[], StepResult], again: Callable[[], StepResult],
              pause: Pause) -> StepResult:
    """``send()``, then while the gateway asks to slow down (429), wait as it asks and
    ``again()``, ``BUSY_TRIES`` times at most; a wait longer than ``BUSY_MAX_WAIT`` is left to
    the outbox (the step is queued for then)."""
    result = send()
    for _ in range(BUSY_TRIES):
        wait = BUSY_WAIT if result.retry_after is None else result.retry_after
        if not result.rate_limited or wait > BUSY_MAX_WAIT:
            break
        pause(wait)
        result = again()
    return result


@dataclass(frozen=True)
class _Sender:
    """What every send of one row needs: the client, the merchant, the row, the importer, and
    how to wait when the gateway asks to slow down."""

    client: OnboardingClient
    merchant: Merchant
    row: BulkRow
    actor: Actor
    pause: Pause

    def steps(self, drafts: dict[str, StepDraft], keys: tuple[str, ...]) -> str:
        """Send the steps ``keys`` not done according to ``drafts`` (read before any was
        sent); why the first one failed, '' when none did."""
        for key in keys:
            draft = drafts.get(key)
            if draft is not None and draft.state in DONE_STATES:
                continue
            step = BY_KEY[key]
            result = patiently(
                partial(send_step, self.client, self.merchant, step, self.row.forms[key],
                        actor=self.actor, store_first=False),
                partial(send_saved, self.client, self.merchant, step, actor=self.actor),
                self.pause)
            if not result.ok:
                return describe(key, result)
        return ""


def _create(sender: _Sender, outcome: RowOutcome) -> str:
    client, merchant, row, actor = sender.client, sender.merchant, sender.row, sender.actor
    if merchant.create_state == CreateState.CREATED:
        return ""
    if merchant.create_state == CreateState.OUTCOME_UNKNOWN:
        return outcome_unknown_message(merchant)
    if merchant.create_state == CreateState.NEEDS_RECONCILE:
        return reconcile_message(merchant)
    create = BY_KEY["create"]
    again = partial(send_saved, client, merchant, create, actor=actor)  # the saved draft
    if outcome.resumed:  # the stored draft may be older than the row: save the row's, send
        result = patiently(partial(send_step, client, merchant, create, row.forms["create"],
                                   actor=actor), again, sender.pause)
    else:  # start_merchant has just saved the row as the draft: send that
        result = patiently(again, again, sender.pause)
    outcome.created = result.ok
    return "" if result.ok else describe("create", result)


def _documents(sender: _Sender, settings: Settings, files: DocumentStore) -> str:
    merchant, row = sender.merchant, sender.row
    for cell in row.documents:
        doc_type = _pending_type(merchant, row, cell)
        if doc_type is None:
            continue  # sent before, or not asked for by the gateway
        with files.open(cell.path) as stream:
            result = documents.upload(sender.client, settings, merchant, doc_type,
                                      cell.name or PurePosixPath(cell.path).name, stream,
                                      actor=sender.actor)
        if not result.ok:
            return describe("documents", result, cell.column)
    return ""


def _pending_type(merchant: Merchant, row: BulkRow, cell: DocumentCell) -> str | None:
    """The outstanding document type ``cell`` answers, if the gateway still asks for it."""
    if cell.owner is not None:
        prefix = row.owner_pan(cell.owner) + "_"
        return next((key for key in merchant.documents_outstanding
                     if key.startswith(prefix) and AADHAR_DOC_PATTERN.fullmatch(key)), None)
    slots = documents.slots(merchant, documents.documents_of(merchant))
    wanted = {t for slot in slots if slot.outstanding for t in slot.types}
    return cell.doc_type if cell.doc_type in wanted else None


def describe(key: str, result: StepResult, column: str = "") -> str:
    """A failed send in one line, its field errors named by CSV column."""
    details = "; ".join(f"{column or column_for(key, e.field)}: {e.message}"
                        for e in result.errors)
    text = f"{BY_KEY[key].title}: {result.message}"
    return f"{text} ({details})" if details else text


def _finish(outcome: RowOutcome, merchant: Merchant, failure: str) -> RowOutcome:
    outcome.status = merchant.status
    if failure and merchant.create_state in AWAITING:
        outcome.state = RowState.OUTCOME_UNKNOWN
        outcome.reason = f"{failure} {UNKNOWN_NEXT}"
    elif failure:
        outcome.reason = failure
    elif merchant.status in COMPLETE_STATUSES:
        outcome.state = RowState.COMPLETED
    elif merchant.documents_outstanding:
        outcome.state = RowState.AWAITING_DOCUMENTS
        outcome.reason = "Documents to upload in the wizard: " + ", ".join(
            label(key, Kind.DOCUMENT) for key in merchant.documents_outstanding)
    else:
        pending = [s.title for s in steps_to_do(merchant)]
        outcome.reason = "The gateway still lists as incomplete: " + ", ".join(pending)
    outcome.reason = redact_text(outcome.reason)  # a PAN the gateway or a key repeats
    return outcome
