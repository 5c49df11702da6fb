"""Deciding a request: approve (claimed by one conditional UPDATE, so its action runs exactly
once however many admins press Approve at once), reject, or let it lapse after 24 hours.

The requester never approves their own request, nor does an account they vouched for (added,
made an administrator or gave a one-time password: they could have signed in with it); the
requester may reject (withdraw) it. Both rules are in the claiming UPDATE itself. A new
administrator the only admin asked for is confirmed instead by whoever holds the link emailed
to ADMIN_CONFIRMATION_EMAIL, through the same claim. Every step is audited. Functions take
plain arguments and commit their own unit of work.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, or_, select, update

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.approval import ApprovalKind, ApprovalRequest, ApprovalState
from portal.domain.audit.service import Actor, actor_of, record
from portal.domain.four_eyes import runners
from portal.domain.four_eyes.queries import STATE_WORDS, VOUCHED, barred
from portal.domain.users.vouching import vouched_for

NOTE_MAX = 1000
#: The audit trail's outcome for each way carrying a request out can end.
_AUDIT_OUTCOME = {ApprovalState.DONE: "ok", ApprovalState.FAILED: "failed",
                  ApprovalState.UNKNOWN: "unknown"}


@dataclass(frozen=True)
class Decision:
    """How a decision went, in words for the admin at the screen; ``field`` names the form
    field a refusal belongs to."""

    ok: bool
    message: str
    field: str = ""


def _audit(request: ApprovalRequest, action: str, actor: Actor, outcome: str = "ok",
           **detail: str) -> None:
    record(action, actor=actor, outcome=outcome, merchant_id=request.merchant_id,
           detail={"request": request.id, "kind": request.kind, "summary": request.summary,
                   **detail})


def _scrub(request: ApprovalRequest) -> None:
    """A decided request keeps no key: the credentials hold it now, or it was never used."""
    if request.payload.get("private_key_pem"):
        request.payload = {**request.payload, "private_key_pem": None}


def expire_overdue(actor: Actor, now: datetime | None = None) -> int:
    """Mark pending requests older than their 24 hours expired, auditing each as ``actor``'s
    (whoever's page load or decision noticed it); how many."""
    now = now or clock.utcnow()
    overdue = db.session.scalars(select(ApprovalRequest).where(
        ApprovalRequest.state == ApprovalState.PENDING, ApprovalRequest.expires_at <= now)).all()
    expired = 0
    for request in overdue:
        lapsed = db.session.execute(
            update(ApprovalRequest)
            .where(ApprovalRequest.id == request.id,
                   ApprovalRequest.state == ApprovalState.PENDING)
            .values(state=ApprovalState.EXPIRED, decided_at=now)
            .execution_options(synchronize_session=False))
        if lapsed.rowcount == 1:
            db.session.refresh(request)
            _scrub(request)
            _audit(request, "approval.expired", actor)
            expired += 1
    db.session.commit()
    return expired


def _why_not(request: ApprovalRequest, user_id: int | None, now: datetime) -> str:
    """Why ``user_id`` (None: the holder of an emailed confirmation) could not claim the
    request: the words for the person at the screen."""
    if request.state == ApprovalState.EXPIRED or request.expires_at <= now:
        return ("This request expired after 24 hours without a second admin, so nothing was "
                "run; ask again if it is still needed.")
    if request.state != ApprovalState.PENDING:
        who = request.decided_by.email if request.decided_by else "another admin"
        state = STATE_WORDS[ApprovalState(request.state)].lower()
        return f"This request was already decided ({state}, by {who}); nothing was run again."
    if user_id is None:
        return "This request cannot be confirmed now."
    if request.requested_by_id == user_id:
        return "You asked for this yourself: another admin must approve it."
    if barred(request, user_id):
        return VOUCHED
    return "This request cannot be approved now."


def _claim(request_id: int, state: str, user_id: int | None, reason: str,
           *conditions: ColumnElement[bool]) -> tuple[bool, ApprovalRequest | None]:
    """Move a pending request to ``state`` for ``user_id`` in one conditional UPDATE (also
    under ``conditions``), commit, and return whether this call moved it, with the request as
    it now stands (None when there is no such request)."""
    moved = db.session.execute(
        update(ApprovalRequest)
        .where(ApprovalRequest.id == request_id, ApprovalRequest.state == ApprovalState.PENDING,
               *conditions)
        .values(state=state, decided_by_id=user_id, decided_at=clock.utcnow(),
                decision_reason=reason[:NOTE_MAX])
        .execution_options(synchronize_session=False))
    db.session.commit()
    request = db.session.get(ApprovalRequest, request_id)
    if request is not None:
        db.session.refresh(request)
    return moved.rowcount == 1, request


def approve(settings: Settings, request_id: int, user_id: int, note: str = "") -> Decision:
    """Claim the pending request for ``user_id`` and carry its action out, exactly once, as
    theirs."""
    actor = actor_of(user_id)
    expire_overdue(actor)
    now = clock.utcnow()
    claimed, request = _claim(
        request_id, ApprovalState.RUNNING, user_id, note.strip(),
        ApprovalRequest.expires_at > now,
        or_(ApprovalRequest.requested_by_id.is_(None), ApprovalRequest.requested_by_id != user_id),
        ~vouched_for(user_id, ApprovalRequest.requested_by_id))
    return _carry_out(settings, request, claimed, user_id, actor, now)


def confirm_by_email(settings: Settings, request_id: int, confirmer: Actor) -> Decision:
    """Claim a new administrator's request for ``confirmer``, the holder of the link emailed to
    ADMIN_CONFIRMATION_EMAIL, and carry it out, exactly once (the caller checked the link)."""
    expire_overdue(confirmer)
    now = clock.utcnow()
    claimed, request = _claim(
        request_id, ApprovalState.RUNNING, None, f"Confirmed by {confirmer.label}",
        ApprovalRequest.expires_at > now, ApprovalRequest.kind == ApprovalKind.ADMIN_ROLE)
    return _carry_out(settings, request, claimed, None, confirmer, now)


def _carry_out(settings: Settings, request: ApprovalRequest | None, claimed: bool,
               user_id: int | None, actor: Actor, now: datetime) -> Decision:
    """After a claim: say why it failed, or run the claimed request's action as ``actor``'s."""
    if request is None:
        return Decision(False, "There is no such request.")
    if not claimed:
        message = _why_not(request, user_id, now)
        _audit(request, "approval.approve", actor, outcome="refused", reason=message)
        db.session.commit()
        return Decision(False, message)
    _audit(request, "approval.approved", actor, note=request.decision_reason)
    db.session.commit()
    outcome = runners.run(settings, request, actor)
    db.session.refresh(request)
    request.state = outcome.state
    request.outcome = outcome.message[:500]
    _scrub(request)
    _audit(request, "approval.carried_out", actor, outcome=_AUDIT_OUTCOME[outcome.state],
           result=outcome.message)
    db.session.commit()
    prefix = "Approved and carried out: " if outcome.state == ApprovalState.DONE else \
        "Approved, but not carried out: "
    return Decision(outcome.state == ApprovalState.DONE, prefix + outcome.message)


def reject(request_id: int, user_id: int, reason: str) -> Decision:
    """Refuse the pending request, with the reason the requester will read."""
    text = reason.strip()
    if not text:
        return Decision(False, "Say why you reject it: the admin who asked reads this.",
                        "reason")
    actor = actor_of(user_id)
    expire_overdue(actor)
    now = clock.utcnow()
    refused, request = _claim(request_id, ApprovalState.REJECTED, user_id, text)
    if request is None:
        return Decision(False, "There is no such request.")
    if not refused:
        return Decision(False, _why_not(request, user_id, now))
    _scrub(request)
    _audit(request, "approval.rejected", actor, reason=text)
    db.session.commit()
    return Decision(True, "Request rejected; nothing was run.")
