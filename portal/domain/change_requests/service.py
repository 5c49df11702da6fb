"""A change request's life: drafted from a locked section with its proof (a second person's
approval asked at once), emailed to the gateway's support once approved (``mail``), the
support's answer recorded by ops, the section open again for this change once the gateway reset
the record, and applied when the step is sent with it (``portal.domain.onboarding.reopened``).
Every move is audited; functions commit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import BinaryIO

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.approval import ApprovalRequest, ApprovalState
from portal.core.models.change_request import OPEN_STATES, ChangeRequest, ChangeState
from portal.core.models.merchant import Merchant
from portal.core.models.notice import Notice, NoticeKind
from portal.core.refusals import FieldRefused
from portal.domain.audit.service import SYSTEM, Actor, record
from portal.domain.change_requests.sections import BY_KEY, SECTIONS, Section, read
from portal.domain.documents import service as documents
from portal.domain.onboarding.drafts import drafts_of
from portal.domain.onboarding.locks import lock_reason
from portal.domain.onboarding.steps import BY_KEY as STEPS_BY_KEY

#: The longest reason or answer kept.
TEXT_MAX = 2000


class ChangeRefused(FieldRefused):
    """The change request cannot be stored or moved; ``field`` names the form field at fault."""


@dataclass(frozen=True)
class Proof:
    """The file proving the change, as uploaded."""

    filename: str
    stream: BinaryIO


def section_of(change: ChangeRequest) -> Section:
    """The section ``change`` changes."""
    return BY_KEY[change.section]


def requests_of(merchant: Merchant) -> list[ChangeRequest]:
    """The merchant's change requests, newest first (a request whose approval was rejected or
    lapsed is closed as refused first)."""
    found = list(db.session.scalars(select(ChangeRequest)
                                    .where(ChangeRequest.merchant_id == merchant.id)
                                    .order_by(ChangeRequest.id.desc())))
    for change in found:
        settle(change)
    return found


@dataclass(frozen=True)
class Standing:
    """A section on the merchant's page: whether its step is locked, and its open request."""

    section: Section
    locked: bool
    open: ChangeRequest | None


def standings(merchant: Merchant) -> list[Standing]:
    """Each section, locked or not, with its open change request (none while the merchant
    was never created at the gateway)."""
    if not merchant.onboarding_id:
        return []
    return [Standing(section, lock_reason(merchant, STEPS_BY_KEY[section.step]) is not None,
                     open_request(merchant, section.key)) for section in SECTIONS]


def open_request(merchant: Merchant, section: str) -> ChangeRequest | None:
    """The open change request of ``section``, if any."""
    return db.session.scalar(select(ChangeRequest).where(
        ChangeRequest.open_key == _open_key(merchant.id, section)))


def current_values(merchant: Merchant, section: Section) -> dict[str, str]:
    """The section's fields as the step's draft (the one sent) holds them."""
    draft = drafts_of(merchant).get(section.step)
    payload = draft.payload if draft is not None else {}
    return {field.path: read(payload, field.path) for field in section.fields}


def draft(settings: Settings, merchant: Merchant, section_key: str,
          new_values: Mapping[str, str], reason: str, proof: Proof | None,
          user_id: int | None, actor: Actor) -> ChangeRequest:
    """Record a change of ``section_key`` with its proof, flushed for the caller to commit with
    its four-eyes request (``portal.domain.four_eyes.requests.request_change``); ChangeRefused
    says why not (nothing changes, no proof, one already open...)."""
    section = BY_KEY.get(section_key)
    if section is None:
        raise ChangeRefused("There is no such section to change.")
    old = current_values(merchant, section)
    new = {field.path: (new_values.get(field.path) or "").strip() for field in section.fields}
    if new == old:
        raise ChangeRefused("Nothing changes: type the new values.", section.fields[0].path)
    text = _checked_text(reason, "reason", "Say why the change is needed, in a sentence: the "
                                           "approver and the gateway's support read it.")
    if open_request(merchant, section.key) is not None:
        raise ChangeRefused(_ALREADY_OPEN)
    proof_id = _stored_proof(settings, merchant, section, proof, user_id, actor)
    change = ChangeRequest(merchant_id=merchant.id, section=section.key,
                           open_key=_open_key(merchant.id, section.key),
                           step=section.step, state=ChangeState.DRAFTED, old_values=old,
                           new_values=new,
                           reason=text, proof_document_id=proof_id, requested_by_id=user_id,
                           answer="", send_error="")
    db.session.add(change)
    try:
        db.session.flush()
    except IntegrityError as exc:  # another person opened one for this section meanwhile
        db.session.rollback()
        raise ChangeRefused(_ALREADY_OPEN) from exc
    record("change_request.draft", actor=actor, merchant_id=merchant.id,
           detail={"change": change.id, "section": section.key})
    return change


def record_answer(change: ChangeRequest, reset: bool, answer: str, actor: Actor) -> None:
    """The gateway's support answered a sent request: it reset the record (the section opens
    for this change) or refused (the request closes); the merchant's owner is told (unless
    they recorded it)."""
    if change.state != ChangeState.SENT:
        raise ChangeRefused("Only a request sent to the gateway's support has an answer to "
                            "record.")
    change.answer = _checked_text(answer, "answer", "Write what the gateway's support answered.")
    merchant = db.session.get(Merchant, change.merchant_id)
    if merchant is not None and merchant.owner_id != actor.id:
        db.session.add_all(Notice.for_owner_of(merchant, NoticeKind.CHANGE_ANSWERED,
                                               status="reset" if reset else "refused",
                                               by_user_id=actor.id))
    _move(change, ChangeState.REOPENED if reset else ChangeState.REFUSED, actor,
          "change_request.answer", reset=reset)


def mark(change: ChangeRequest, state: ChangeState, actor: Actor, action: str,
         send_error: str = "") -> None:
    """Move ``change`` to ``state`` as the mail step does (approved, sent), audited; commits."""
    change.send_error = send_error[:300]
    _move(change, state, actor, action)


def _move(change: ChangeRequest, state: ChangeState, actor: Actor, action: str,
          **detail: object) -> None:
    before = change.state
    change.state, change.state_at = state, clock.utcnow()
    if state not in OPEN_STATES:
        change.open_key = None
    record(action, actor=actor, merchant_id=change.merchant_id,
           detail={"change": change.id, "section": change.section, "from": before,
                   "to": state.value, **detail})
    db.session.commit()


def settle(change: ChangeRequest) -> None:
    """A drafted request whose approval was rejected or lapsed is refused, with why."""
    if change.state != ChangeState.DRAFTED or change.approval_request_id is None:
        return
    approval = db.session.get(ApprovalRequest, change.approval_request_id)
    if approval is None or approval.state not in (ApprovalState.REJECTED, ApprovalState.EXPIRED):
        return
    change.answer = (f"Not approved: {approval.decision_reason}"
                     if approval.state == ApprovalState.REJECTED
                     else "Not approved within 24 hours: ask again if it is still needed.")
    _move(change, ChangeState.REFUSED, SYSTEM, "change_request.not_approved")


def _stored_proof(settings: Settings, merchant: Merchant, section: Section, proof: Proof | None,
                  user_id: int | None, actor: Actor) -> int | None:
    if not section.proof_types:
        return None
    if proof is None or not proof.filename:
        raise ChangeRefused(f"Attach the proof: {section.proof_words.lower()}.", "proof")
    received, stored_name = documents.save_upload(settings, proof.stream)
    if received.error:
        raise ChangeRefused(received.error, "proof")
    document = documents.remember(merchant, section.proof_types[0], proof.filename, stored_name,
                                  received, user_id, actor=actor)
    return document.id


def _checked_text(text: str | None, field: str, missing: str) -> str:
    value = (text or "").strip()
    if not value:
        raise ChangeRefused(missing, field)
    if len(value) > TEXT_MAX:
        raise ChangeRefused(f"Keep it under {TEXT_MAX} characters.", field)
    return value


def _open_key(merchant_id: int, section: str) -> str:
    return f"{merchant_id}:{section}"


_ALREADY_OPEN = ("A change of this section is already open: finish or close it before asking "
                 "for another.")
