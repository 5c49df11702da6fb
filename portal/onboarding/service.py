"""Onboarding steps 1-5 and 7: drafts kept locally, sends validated with the shared shapes.

Every function takes plain arguments (a merchant, form data as a dict, a client) and commits
its own unit of work; nothing here knows about requests or forms.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from portal import clock
from portal.audit.service import record
from portal.config import Settings
from portal.db import db
from portal.gateway import rules
from portal.gateway.errors import GatewayError, GatewayUnavailable, ValidationFailed
from portal.gateway.onboarding_client import OnboardingClient
from portal.gateway.onboarding_shapes import ChecklistState, MerchantData, PennyDropStatus
from portal.gateway.retry import RetryPolicy
from portal.gateway.shapes import FieldError, validate_payload
from portal.gateway.transport import Timeouts
from portal.models.merchant import CreateState, Merchant
from portal.models.status_change import StatusSource
from portal.models.step import StepDraft, StepState
from portal.onboarding.locks import lock_reason, says_locked
from portal.onboarding.steps import BY_KEY, STEPS, Step
from portal.outbox import queue
from portal.status.history import change_status

EXTERNAL_ID_FIELD = "externalOnboardingId"
#: The document the gateway asks for when the penny drop could not verify the bank account.
CANCELLED_CHEQUE = "CANCELLED_CHEQUE"
UNAVAILABLE = "unavailable"
REFUSED = "refused"
INVALID = "invalid"


@dataclass
class StepResult:
    """How a send went: ``errors`` use the gateway's field paths ('' = the whole step)."""

    ok: bool
    message: str = ""
    errors: list[FieldError] = field(default_factory=list)
    unavailable: bool = False
    gid: str = ""
    #: When the step was queued for a later send: the time of the next attempt.
    queued_until: datetime | None = None
    #: When someone else saved the step first: their draft as now stored (nothing was saved).
    conflict: StepDraft | None = None
    #: The draft version this save produced (a re-shown form must carry it); None if unsaved.
    version: int | None = None
    #: Sent, but the answer asks for something more (a failed penny drop: a cancelled cheque).
    needs_follow_up: bool = False


class DraftConflict(Exception):
    """The step was saved by someone else since the form was loaded; nothing was written."""

    def __init__(self, stored: StepDraft) -> None:
        super().__init__(f"step {stored.step} is at version {stored.version}")
        self.stored = stored


@dataclass(frozen=True)
class StepStatus:
    """One stepper entry."""

    step: Step
    state: str
    lock_reason: str | None = None


def client_for(settings: Settings, timeouts: Timeouts | None = None,
               retry: RetryPolicy = RetryPolicy()) -> OnboardingClient:
    """The onboarding client configured from ``settings`` (``timeouts`` overrides its own)."""
    return OnboardingClient(
        settings.onboarding_url, settings.api_key, settings.api_secret,
        timeouts=timeouts or Timeouts(settings.connect_timeout, settings.read_timeout),
        retry=retry)


def new_external_id() -> str:
    """A fresh externalOnboardingId, generated once and stored before the create is sent."""
    return "pop-" + uuid.uuid4().hex


def get_merchant(merchant_id: int) -> Merchant | None:
    """The merchant with this id, or None."""
    return db.session.get(Merchant, merchant_id)


def drafts_of(merchant: Merchant) -> dict[str, StepDraft]:
    """The merchant's step drafts by step key, in one query."""
    rows = db.session.scalars(select(StepDraft).where(StepDraft.merchant_id == merchant.id))
    return {row.step: row for row in rows}


def stepper(merchant: Merchant, drafts: dict[str, StepDraft]) -> list[StepStatus]:
    """Every step's state for the stepper: locks from the stored checklist come first."""
    entries = []
    for step in STEPS:
        draft = drafts.get(step.key)
        reason = lock_reason(merchant, step) if step.available else None
        if step.key == "create" and merchant.create_state in (CreateState.OUTCOME_UNKNOWN,
                                                               CreateState.NEEDS_RECONCILE):
            state = StepState.NEEDS_ATTENTION
        elif step.key == "create" and merchant.create_state == CreateState.CREATED:
            state = StepState.SENT
        elif reason or (draft is not None and draft.state == StepState.LOCKED):
            state = StepState.LOCKED
            reason = reason or (draft.lock_reason if draft else None)
        else:
            state = draft.state if draft is not None else StepState.NOT_STARTED
        if step.key == "bank" and state == StepState.SENT and cheque_needed(merchant):
            state = StepState.NEEDS_ATTENTION
        entries.append(StepStatus(step, state, reason))
    return entries


def cheque_needed(merchant: Merchant) -> bool:
    """The penny drop failed and the cancelled cheque it calls for is not uploaded yet."""
    return (merchant.penny_drop_status == PennyDropStatus.FAILED
            and CANCELLED_CHEQUE in merchant.documents_outstanding)


def penny_drop_outcome(merchant: Merchant) -> str:
    """What a bank details send found out, in words: the name at the bank, or what is needed."""
    if merchant.penny_drop_status == PennyDropStatus.VERIFIED:
        name = f" The bank knows the account holder as '{merchant.name_at_bank}'." \
            if merchant.name_at_bank else ""
        return ("Bank details sent to the gateway. The penny drop verified the account: "
                f"the bank confirmed it.{name}")
    return ("Bank details sent to the gateway, but the penny drop failed: the bank could not "
            "verify the account, so a cancelled cheque is now needed. Upload it in step 6 "
            "(Documents), or correct the bank details and send them again.")


def save_draft(merchant: Merchant, step: Step, data: dict[str, Any],
               version: int | None = None) -> StepDraft:
    """Store what was typed without sending it (the step is then a draft again).

    ``version`` is the draft version the form was loaded at (default: the one read now); if
    the stored draft moved on since, nothing is written and DraftConflict is raised. A send
    still queued for the step is superseded: older data is never sent after newer.
    """
    draft = draft_for(merchant, step)
    created = draft.id is None
    try:
        _take_version(draft, draft.version if version is None else version)
        queue.supersede(merchant.id, step.key)
        draft.payload = data
        if draft.state != StepState.LOCKED:
            draft.state = StepState.DRAFT
            draft.last_error = {}
        draft.updated_at = clock.utcnow()
        merchant.touch()
        record("step.draft", merchant_id=merchant.id, detail={"step": step.key})
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        stored = _find_draft(merchant, step) if created else None
        if stored is None:
            raise
        raise DraftConflict(stored) from None  # someone created the step's draft meanwhile
    return draft


def draft_saved() -> StepResult:
    """The outcome of a draft that was stored."""
    return StepResult(True, "Draft saved; nothing was sent to the gateway.")


def save_step_draft(merchant: Merchant, step: Step, data: dict[str, Any],
                    version: int | None = None) -> StepResult:
    """Save any step's draft; step 1's identity fields are checked first."""
    try:
        if step.key == "create":
            errors = save_create_draft(merchant, data, version)
            if errors:
                return StepResult(False, "The draft could not be saved.", errors)
        else:
            save_draft(merchant, step, data, version)
    except DraftConflict as exc:
        return conflict_result(exc)
    return draft_saved()


def conflict_result(exc: DraftConflict) -> StepResult:
    """The outcome of a save refused because someone else saved the step first."""
    at = exc.stored.updated_at.strftime("%Y-%m-%d %H:%M:%S UTC")
    return StepResult(False, f"Someone else saved this step at {at}, after you opened it. "
                      "Nothing of yours was saved: compare the changes below and save again "
                      "to keep what you typed.", conflict=exc.stored)


def start_merchant(data: dict[str, Any],
                   sending: bool = False) -> tuple[Merchant | None, list[FieldError]]:
    """Create the local record for step 1 (nothing is sent); the external id must be free.

    When it is not and the user meant to send, every other field that could not be sent is
    named too, so one round trip shows all that needs correcting.
    """
    external_id = str(data.get(EXTERNAL_ID_FIELD) or "").strip()
    errors = _external_id_errors(external_id, None)
    if errors:
        return None, with_send_errors(BY_KEY["create"], data, errors) if sending else errors
    merchant = Merchant(external_onboarding_id=external_id, pan="", checklist={},
                        documents_outstanding=[])
    db.session.add(merchant)
    db.session.flush()
    record("merchant.start", merchant_id=merchant.id,
           detail={"externalOnboardingId": external_id})
    _update_identity(merchant, data)
    save_draft(merchant, BY_KEY["create"], data)
    return merchant, []


def save_create_draft(merchant: Merchant, data: dict[str, Any],
                      version: int | None = None) -> list[FieldError]:
    """Step 1's draft: the identity fields may change only until the create is sent."""
    if merchant.create_state != CreateState.DRAFT:
        return [FieldError("", "The create was sent already; the id and the PAN are fixed.")]
    errors = _external_id_errors(str(data.get(EXTERNAL_ID_FIELD) or "").strip(), merchant)
    if errors:
        return errors
    _update_identity(merchant, data)
    save_draft(merchant, BY_KEY["create"], data, version)
    return []


def send_step(client: OnboardingClient, merchant: Merchant, step: Step,
              data: dict[str, Any], version: int | None = None) -> StepResult:
    """Keep the draft, validate it like the gateway does, send it and store the answer."""
    try:
        if step.key == "create":
            errors = save_create_draft(merchant, data, version)
            if errors:
                return StepResult(False, "The draft could not be saved.",
                                  with_send_errors(step, data, errors))
            return _send_create(client, merchant)
        reason = lock_reason(merchant, step)
        if reason:
            return StepResult(False, reason)
        draft = save_draft(merchant, step, data, version)
    except DraftConflict as exc:
        return conflict_result(exc)
    return _send(client, merchant, step, draft)


def with_send_errors(step: Step, data: dict[str, Any],
                     errors: list[FieldError]) -> list[FieldError]:
    """``errors`` plus what a send of ``data`` would refuse in the fields they do not name."""
    assert step.request is not None
    _, refused = validate_payload(step.shape, step.request(data), each_field=True)
    named = {error.field for error in errors}
    return [*errors, *(error for error in refused if error.field not in named)]


def send_saved(client: OnboardingClient, merchant: Merchant, step: Step) -> StepResult:
    """Send the stored draft again (the Retry button after the gateway was unreachable)."""
    if step.key == "create":
        return retry_create(client, merchant)
    draft = draft_for(merchant, step)
    reason = lock_reason(merchant, step)
    if reason:
        return StepResult(False, reason)
    return _send(client, merchant, step, draft)


def retry_create(client: OnboardingClient, merchant: Merchant) -> StepResult:
    """Send the create again with the same externalOnboardingId and PAN, never a new id."""
    if merchant.create_state not in (CreateState.DRAFT, CreateState.OUTCOME_UNKNOWN):
        return StepResult(False, "The create cannot be sent again for this record.")
    return _send_create(client, merchant)


def apply_answer(merchant: Merchant, data: MerchantData, gid: str = "") -> None:
    """Store what a step's send answered: status, checklist, outstanding documents, penny drop."""
    merchant.onboarding_id = merchant.onboarding_id or data.merchantInfo.onboardingId
    store_record(merchant, data)
    # a send's answer is the newest word on the record: it may move the status back (a change
    # that leaves something outstanding); a status name the portal does not know moves nothing
    change_status(merchant, data.merchantInfo.status, StatusSource.STEP_SEND, gid)
    merchant.touch()


def store_record(merchant: Merchant, data: MerchantData) -> None:
    """Store the gateway's record and checklist, everything but the status; no commit."""
    info = data.merchantInfo
    merchant.gateway_status = info.reported_status[:64] or merchant.gateway_status
    checklist = data.merchantOnboardingCheckListStatus.model_dump(mode="json")
    merchant.documents_outstanding = list(checklist.pop("documentsToBeUploaded", []))
    merchant.checklist = checklist
    settlement = info.settlementDetails
    if settlement is not None and settlement.pennyDropStatus is not None:
        merchant.penny_drop_status = settlement.pennyDropStatus
        merchant.name_at_bank = settlement.nameAtBank
    if info.businessDetails is not None and info.businessDetails.registeredName:
        merchant.legal_name = info.businessDetails.registeredName
    _sync_documents_step(merchant)


def mark_sent(draft: StepDraft, gid: str) -> None:
    """The gateway accepted the step."""
    draft.state = StepState.SENT
    draft.last_error = {}
    draft.last_gid = gid
    draft.sent_at = clock.utcnow()


def mark_failed(draft: StepDraft, kind: str, message: str, errors: list[FieldError],
                gid: str = "") -> None:
    """Keep the draft and remember why the send failed; a 'locked' refusal locks the step."""
    locked = next((e.message for e in errors if says_locked(e.message)), None) \
        if kind == REFUSED else None
    draft.state = StepState.LOCKED if locked else StepState.NEEDS_ATTENTION
    draft.lock_reason = locked or draft.lock_reason
    draft.last_error = {"kind": kind, "message": message,
                        "fields": [e.as_json() for e in errors]}
    draft.last_gid = gid or draft.last_gid


def unavailable_message(exc: GatewayUnavailable) -> str:
    """What the page says when the gateway could not be reached."""
    return (f"The gateway could not be reached ({exc.message}). Everything you typed is kept "
            "as a draft; retry when the gateway is back.")


# ---------------------------------------------------------------- internals


def _take_version(draft: StepDraft, seen: int) -> None:
    """Move the stored draft from version ``seen`` to the next, or raise DraftConflict.

    The conditional UPDATE is the check: it lands only while the row is still at ``seen``,
    and holds the row until the commit, so of two concurrent saves exactly one wins.
    """
    if draft.id is None:
        draft.version = seen + 1
        return
    result = db.session.execute(
        update(StepDraft).where(StepDraft.id == draft.id, StepDraft.version == seen)
        .values(version=seen + 1),
        execution_options={"synchronize_session": False},
    )
    if result.rowcount != 1:
        db.session.rollback()
        db.session.refresh(draft)
        raise DraftConflict(draft)
    set_committed_value(draft, "version", seen + 1)


def _find_draft(merchant: Merchant, step: Step) -> StepDraft | None:
    """The step's stored draft, if any."""
    return db.session.scalar(select(StepDraft).where(StepDraft.merchant_id == merchant.id,
                                                     StepDraft.step == step.key))


def draft_for(merchant: Merchant, step: Step) -> StepDraft:
    """The step's draft, created empty when there is none."""
    draft = _find_draft(merchant, step)
    if draft is None:
        draft = StepDraft(merchant_id=merchant.id, step=step.key, payload={}, last_error={},
                          state=StepState.DRAFT, version=0)
        db.session.add(draft)
    return draft


def _external_id_errors(external_id: str, merchant: Merchant | None) -> list[FieldError]:
    if not rules.EXTERNAL_ID_PATTERN.fullmatch(external_id):
        return [FieldError(EXTERNAL_ID_FIELD, rules.EXTERNAL_ID_MESSAGE)]
    taken = db.session.scalar(select(Merchant.id).where(
        Merchant.external_onboarding_id == external_id))
    if taken is not None and (merchant is None or taken != merchant.id):
        return [FieldError(EXTERNAL_ID_FIELD, "Another merchant in the portal uses this id")]
    return []


def _update_identity(merchant: Merchant, data: dict[str, Any]) -> None:
    merchant.external_onboarding_id = str(data.get(EXTERNAL_ID_FIELD) or "").strip()
    merchant.display_name = str(data.get("displayName") or "").strip()[:200]
    try:
        merchant.pan = rules.check_pan(str(data.get("panNumber") or ""))
    except ValueError:
        merchant.pan = ""


def _send_create(client: OnboardingClient, merchant: Merchant) -> StepResult:
    step = BY_KEY["create"]
    draft = draft_for(merchant, step)
    retrying = merchant.create_state == CreateState.OUTCOME_UNKNOWN
    body = {EXTERNAL_ID_FIELD: merchant.external_onboarding_id,
            "panNumber": merchant.pan or draft.payload.get("panNumber", "")}
    result = call_gateway(client, merchant, step, draft, body)
    result.version = draft.version
    if result.ok:
        merchant.create_state = CreateState.CREATED
    elif retrying and any(e.field == EXTERNAL_ID_FIELD for e in result.errors):
        merchant.create_state = CreateState.NEEDS_RECONCILE
        result.message = reconcile_message(merchant)
    elif result.unavailable and merchant.create_state == CreateState.OUTCOME_UNKNOWN:
        result.message = outcome_unknown_message(merchant)
    db.session.commit()
    return result


def outcome_unknown_message(merchant: Merchant) -> str:
    """Why the create may or may not have landed, and what to do."""
    return (f"The create for {merchant.external_onboarding_id} was sent but no answer came "
            "back: it may or may not have been created. Retry with the same id; the portal "
            "never sends a create under a new id.")


def reconcile_message(merchant: Merchant) -> str:
    """Why a merchant must be reconciled after the retry was refused as a reused id."""
    return (f"The gateway says the id {merchant.external_onboarding_id} is already used: the "
            "first create probably landed, but its answer was lost. The record must be "
            "reconciled (ask the gateway for the onboardingId of this partnerOnboardingId); "
            "the portal will not send another create.")


def _send(client: OnboardingClient, merchant: Merchant, step: Step,
          draft: StepDraft) -> StepResult:
    """Send the draft; when the gateway is unavailable, queue it for the background sync."""
    assert step.request is not None
    queue.supersede(merchant.id, step.key)
    body = step.request(draft.payload)
    result = call_gateway(client, merchant, step, draft, body)
    result.version = draft.version
    if result.ok and step.key == "bank" and merchant.penny_drop_status:
        result.message = penny_drop_outcome(merchant)
        result.needs_follow_up = cheque_needed(merchant)
    if result.unavailable:
        item = queue.enqueue(draft, body, result.message)
        result.queued_until = item.next_attempt_at
        result.message = queued_message(item.next_attempt_at)
    db.session.commit()
    return result


def queued_message(next_attempt_at: datetime) -> str:
    """What the page says when a step was queued because the gateway was unavailable."""
    at = next_attempt_at.strftime("%Y-%m-%d %H:%M:%S UTC")
    return ("The gateway is unavailable, so this step was saved and queued: the portal sends "
            f"it by itself, next attempt at {at}. A newer save of the step replaces it.")


def call_gateway(client: OnboardingClient, merchant: Merchant, step: Step, draft: StepDraft,
                 body: Any) -> StepResult:
    """Validate locally, send, store the answer or the failure, audit; no commit."""
    action = f"step.send.{step.key}"
    value, errors = validate_payload(step.shape, body, each_field=True)
    if errors:
        mark_failed(draft, INVALID, "Some fields need correcting.", errors)
        record(action, outcome=INVALID, merchant_id=merchant.id,
               detail={"fields": [e.field for e in errors]})
        return StepResult(False, "Some fields need correcting.", errors)
    if step.key != "create" and not merchant.onboarding_id:
        return StepResult(False, "Create the merchant at the gateway first (step 1).")
    create_state_before = merchant.create_state
    if step.key == "create":  # until an answer says otherwise, also if this process dies now
        merchant.create_state = CreateState.OUTCOME_UNKNOWN
    db.session.commit()  # what is sent is stored before it is sent
    try:
        method = getattr(client, step.operation or "")
        args = (value,) if step.key == "create" else (merchant.onboarding_id, value)
        answer: MerchantData = method(*args)
    except ValidationFailed as exc:
        merchant.create_state = create_state_before  # answered: nothing was created
        message = "The gateway refused the request."
        mark_failed(draft, REFUSED, message, exc.field_errors, exc.gid)
        record(action, outcome=REFUSED, merchant_id=merchant.id, gid=exc.gid,
               detail={"fields": [e.field for e in exc.field_errors]})
        return StepResult(False, message, exc.field_errors, gid=exc.gid)
    except GatewayUnavailable as exc:
        if not exc.outcome_unknown:  # never reached the gateway
            merchant.create_state = create_state_before
        message = unavailable_message(exc)
        mark_failed(draft, UNAVAILABLE, message, [], exc.gid)
        record(action, outcome="unknown" if exc.outcome_unknown else UNAVAILABLE,
               merchant_id=merchant.id, gid=exc.gid, detail={"error": exc.message})
        merchant.touch()
        return StepResult(False, message, unavailable=True, gid=exc.gid)
    except GatewayError as exc:
        merchant.create_state = create_state_before  # answered: nothing was created
        message = f"The gateway answered with an error: {exc}"
        mark_failed(draft, REFUSED, message, [], exc.gid)
        record(action, outcome="error", merchant_id=merchant.id, gid=exc.gid,
               detail={"error": exc.message})
        return StepResult(False, message, gid=exc.gid)
    gid = client.last_gid
    mark_sent(draft, gid)
    apply_answer(merchant, answer, gid)
    record(action, merchant_id=merchant.id, gid=gid,
           detail={"status": merchant.status or ""})
    return StepResult(True, f"{step.title} sent to the gateway.", gid=gid)


def _sync_documents_step(merchant: Merchant) -> None:
    """The documents step is done when the gateway's checklist says so."""
    step = BY_KEY["documents"]
    complete = merchant.checklist.get("documents") == ChecklistState.COMPLETE
    draft = _find_draft(merchant, step)
    if draft is None and complete:
        draft = draft_for(merchant, step)
    if draft is None or draft.state == StepState.LOCKED:
        return
    if complete:
        draft.state = StepState.SENT
    elif draft.state == StepState.SENT:
        draft.state = StepState.DRAFT
