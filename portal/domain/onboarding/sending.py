"""Sending a step to the gateway: validate as the gateway does, store what is sent before it
is sent (a bulk import's row, whose import keeps it, may store it with the answer instead:
``service.send_step``), call the step's operation, then store the answer or why it failed.

When the gateway cannot be reached, or asks us to slow down (429), a step's send is queued for
the background sync, no earlier than its ``Retry-After`` (step 1 is never queued: see
:mod:`portal.domain.onboarding.create`). A 2xx answer is read in any of the gateway's dialects
(:mod:`portal.gateway.onboarding.reading`); when it does not carry the record (a short answer)
or cannot be read at all, the step is sent all the same and the status read tells the rest.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.step import StepDraft, StepState
from portal.domain.audit.service import Actor, record
from portal.domain.onboarding.before_sending import checked
from portal.domain.onboarding.gateway_record import apply_answer, apply_record
from portal.domain.onboarding.gateway_words import refusal_words
from portal.domain.onboarding.locks import says_locked
from portal.domain.onboarding.outbox import queue
from portal.domain.onboarding.progress import cheque_needed, penny_drop_outcome
from portal.domain.onboarding.result import StepResult
from portal.domain.onboarding.steps import Step
from portal.domain.onboarding.whole_page import check_all
from portal.gateway.errors import (
    TOO_MANY_REQUESTS,
    GatewayError,
    GatewayUnavailable,
    UnexpectedAnswer,
    ValidationFailed,
)
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.shapes import FieldError

#: Why a send failed, as stored in the draft's ``last_error["kind"]``.
UNAVAILABLE = "unavailable"
REFUSED = "refused"
INVALID = "invalid"
#: The audit outcome of a send the gateway took (2xx) with an answer that could not be read.
UNREADABLE = "unreadable"
#: What a send refused before it left says; the page's error summary is headed by it.
NEEDS_CORRECTING = "Some fields need correcting."


def send_draft(client: OnboardingClient, merchant: Merchant, step: Step,
               draft: StepDraft, *, actor: Actor, store_first: bool = True,
               accept_advisory: bool = False) -> StepResult:
    """Send the draft (saved, or staged in this transaction: it is committed with the body
    before the call, unless ``store_first`` is False and it was never stored: see
    ``service.send_step``); when the gateway is unavailable, queue it for the background
    sync; commits. A send still queued for the step was superseded by the caller. With
    ``accept_advisory`` the advisory checks before sending let it through (audited)."""
    assert step.request is not None
    body = step.request(draft.payload)
    result = call_gateway(client, merchant, step, draft, body, actor=actor,
                          store_first=store_first, accept_advisory=accept_advisory)
    result.version = draft.version
    if result.ok and step.checks_account and merchant.penny_drop_status:
        result.message = penny_drop_outcome(merchant)
        result.needs_follow_up = cheque_needed(merchant)
    if result.unavailable:
        item = queue.enqueue(draft, body, result.message, result.retry_after)
        result.queued_until = item.next_attempt_at
        result.message = queued_message(item.next_attempt_at, result.rate_limited)
    db.session.commit()
    return result


def call_gateway(client: OnboardingClient, merchant: Merchant, step: Step, draft: StepDraft,
                 body: Any, *, actor: Actor, store_first: bool = True,
                 accept_advisory: bool = False) -> StepResult:
    """Validate locally and run the checks before sending (``accept_advisory``: the advisory
    ones let it through, audited), then commit (what is sent is stored before it is sent;
    with ``store_first`` False only when the draft was stored already), send, and store the
    answer or the failure with its audit entry (credited to ``actor``); the caller commits
    that."""
    action = f"step.send.{step.key}"
    value, errors = check_all(step.shape, body)
    stops, accepted = checked(merchant, step, value, accept_advisory) if not errors \
        else ([], [])
    errors = errors or [finding.error for finding in stops]
    if errors:
        advisory = bool(stops) and all(finding.advisory for finding in stops)
        mark_failed(draft, INVALID, NEEDS_CORRECTING, errors, advisory=advisory)
        record(action, outcome=INVALID, merchant_id=merchant.id,
               detail={"fields": [e.field for e in errors],
                       "checks": [finding.rule for finding in stops]}, actor=actor)
        return StepResult(False, NEEDS_CORRECTING, errors, advisory_only=advisory)
    if accepted:
        record("step.send_anyway", merchant_id=merchant.id, actor=actor,
               detail={"step": step.key, "checks": [finding.rule for finding in accepted]})
    if not step.creates_record and not merchant.onboarding_id:
        return StepResult(False, "Create the merchant at the gateway first (step 1).")
    assert step.send is not None
    if store_first or draft.id is not None:  # what is sent is stored before it is sent
        db.session.commit()
    try:
        answer = step.send(client, merchant.onboarding_id or "", value)
    except ValidationFailed as exc:
        message = "The gateway refused the request."
        mark_failed(draft, REFUSED, message, exc.field_errors, exc.gid)
        record(action, outcome=REFUSED, merchant_id=merchant.id, gid=exc.gid,
               detail={"fields": [e.field for e in exc.field_errors]}, actor=actor)
        return StepResult(False, message, exc.field_errors, gid=exc.gid)
    except GatewayUnavailable as exc:
        message = unavailable_message(exc)
        mark_failed(draft, UNAVAILABLE, message, [], exc.gid)
        record(action, outcome="unknown" if exc.outcome_unknown else UNAVAILABLE,
               merchant_id=merchant.id, gid=exc.gid, detail={"error": exc.message}, actor=actor)
        merchant.touch()
        return StepResult(False, message, unavailable=True,
                          outcome_unknown=exc.outcome_unknown, gid=exc.gid,
                          rate_limited=exc.http_status == TOO_MANY_REQUESTS,
                          retry_after=exc.retry_after)
    except UnexpectedAnswer as exc:
        return answer_unreadable(client, merchant, step, draft, exc, actor=actor)
    except GatewayError as exc:
        message = refusal_words(exc, merchant.onboarding_id or "")
        mark_failed(draft, REFUSED, message, [], exc.gid)
        record(action, outcome="error", merchant_id=merchant.id, gid=exc.gid,
               detail={"error": exc.message}, actor=actor)
        return StepResult(False, message, gid=exc.gid)
    mark_sent(draft, answer.answer_gid)
    apply_answer(merchant, answer, actor=actor)
    record(action, merchant_id=merchant.id, gid=answer.answer_gid,
           detail={"status": merchant.status or ""}, actor=actor)
    if answer.record is None:  # a short answer: the checklist and status come from a read
        read_instead(client, merchant, actor=actor)
    return StepResult(True, f"{step.title} sent to the gateway.", gid=answer.answer_gid,
                      answer=answer)


def answer_unreadable(client: OnboardingClient, merchant: Merchant, step: Step,
                      draft: StepDraft, exc: UnexpectedAnswer, *,
                      actor: Actor) -> StepResult:
    """The gateway took the send (2xx) but its answer could not be read: a step counts as
    sent and its status is read instead; a create's outcome is unknown (no onboardingId).
    Audited either way; the caller commits."""
    action = f"step.send.{step.key}"
    detail = {"error": exc.message}
    if step.creates_record:
        message = ("The gateway took the create but its answer could not be read: the "
                   "record may or may not exist.")
        mark_failed(draft, UNAVAILABLE, message, [], exc.gid)
        record(action, outcome="unknown", merchant_id=merchant.id, gid=exc.gid, detail=detail,
               actor=actor)
        return StepResult(False, message, outcome_unknown=True, gid=exc.gid)
    mark_sent(draft, exc.gid)
    merchant.touch()
    record(action, outcome=UNREADABLE, merchant_id=merchant.id, gid=exc.gid, detail=detail,
           actor=actor)
    read = read_instead(client, merchant, actor=actor)
    then = ("the portal read the merchant's status instead." if read else
            "the portal could not read the merchant's status just now either; the background "
            "sync reads it.")
    return StepResult(True, f"{step.title} sent to the gateway, but its answer could not be "
                      f"read: {then}", gid=exc.gid, answer_unreadable=True)


def read_instead(client: OnboardingClient, merchant: Merchant, *,
                 actor: Actor) -> bool:
    """Read the record after a send whose answer did not carry it, and store it as that
    answer would have been stored; False (audited) when the read failed; no commit."""
    try:
        data = client.get_status(merchant.onboarding_id or "")
    except GatewayError as exc:
        record("status.read", outcome=UNAVAILABLE, merchant_id=merchant.id, gid=exc.gid,
               detail={"source": "step send", "error": exc.message}, actor=actor)
        return False
    apply_record(merchant, data, actor=actor)
    return True


def mark_sent(draft: StepDraft, gid: str) -> None:
    """The gateway accepted the step."""
    draft.state = StepState.SENT
    draft.last_error = {}
    draft.last_gid = gid
    draft.sent_at = clock.utcnow()


def mark_failed(draft: StepDraft, kind: str, message: str, errors: list[FieldError],
                gid: str = "", *, advisory: bool = False) -> None:
    """Keep the draft and remember why the send failed; a 'locked' refusal locks the step.
    ``advisory``: only advisory checks stopped it (the page offers to send anyway)."""
    locked = next((e.message for e in errors if says_locked(e.message)), None) \
        if kind == REFUSED else None
    draft.state = StepState.LOCKED if locked else StepState.NEEDS_ATTENTION
    draft.lock_reason = locked or draft.lock_reason
    draft.last_error = {"kind": kind, "message": message,
                        "fields": [e.as_json() for e in errors],
                       **({"advisory": True} if advisory else {})}
    draft.last_gid = gid or draft.last_gid


def unavailable_message(exc: GatewayUnavailable) -> str:
    """What the page says when the gateway could not be reached, or asked us to slow down."""
    if exc.http_status == TOO_MANY_REQUESTS:
        wait = (f" in {wait_words(exc.retry_after)}" if exc.retry_after is not None
                else " in a moment")
        return ("The gateway is busy and asked the portal to slow down (too many requests). "
                f"Everything you typed is kept as a draft; retry{wait}.")
    return (f"The gateway could not be reached ({exc.message}). Everything you typed is kept "
            "as a draft; retry when the gateway is back.")


def wait_words(seconds: float) -> str:
    """A wait in words: '45 seconds', '2 minutes'."""
    whole = max(int(-(-seconds // 1)), 1)
    if whole < 120:
        return f"{whole} second{'s' if whole != 1 else ''}"
    return f"{-(-whole // 60)} minutes"


def queued_message(next_attempt_at: datetime, rate_limited: bool = False) -> str:
    """What the page says when a step was queued because the gateway was unavailable (or
    busy: it asked us to slow down)."""
    at = next_attempt_at.strftime("%Y-%m-%d %H:%M:%S UTC")
    why = ("The gateway is busy and asked the portal to slow down" if rate_limited
           else "The gateway is unavailable")
    return (f"{why}, so this step was saved and queued: the portal sends it by itself, next "
            f"attempt at {at}. A newer save of the step replaces it.")
