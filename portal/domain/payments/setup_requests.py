"""Asking an admin to set up a merchant's payments: an ops user, who cannot save credentials,
asks from the credentials page; every admin is told and finds it on their worklist; saving the
credentials closes it and tells the asker. At most one request is open per merchant (a unique
index), so two people asking at once store one."""

from __future__ import annotations

from sqlalchemy import Select, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import load_only

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.notice import MailState, Notice, NoticeKind
from portal.core.models.payment import PaymentCredentials
from portal.core.models.payment_setup import PaymentSetupRequest
from portal.core.models.user import Role, User
from portal.domain.audit.service import Actor, record
from portal.domain.payments.service import not_approved_reason


class AskRefused(Exception):
    """The request cannot be made; the message says why, for the person at the screen."""


def open_request(merchant_id: int) -> PaymentSetupRequest | None:
    """The merchant's open request, if any."""
    return db.session.scalar(select(PaymentSetupRequest).where(
        PaymentSetupRequest.merchant_id == merchant_id, PaymentSetupRequest.closed_at.is_(None)))


def _admins() -> list[int]:
    return list(db.session.scalars(select(User.id).where(
        User.role == Role.ADMIN, User.active.is_(True)).order_by(User.id)))


def _notice(user_id: int, merchant: Merchant, kind: NoticeKind, by: int | None) -> Notice:
    return Notice(user_id=user_id, merchant_id=merchant.id, kind=kind, by_user_id=by,
                  created_at=clock.utcnow(), mail_state=MailState.PENDING)


def ask(merchant: Merchant, asker: User) -> tuple[PaymentSetupRequest, bool]:
    """Ask the admins to set up ``merchant``'s payments: the request, a notice to every active
    admin and the audit entry, in one commit. Returns the open request and whether this call
    made it (False: someone had asked already, or asked at the same moment)."""
    reason = not_approved_reason(merchant)
    if reason:
        raise AskRefused(reason)
    if _credentials_id(merchant) is not None:
        raise AskRefused("This merchant's payments are set up already.")
    existing = open_request(merchant.id)
    if existing is not None:
        return existing, False
    admins = _admins()
    request = PaymentSetupRequest(merchant_id=merchant.id, asked_by_id=asker.id,
                                  asked_at=clock.utcnow())
    db.session.add(request)
    db.session.add_all(_notice(admin, merchant, NoticeKind.PAYMENTS_ASKED, asker.id)
                       for admin in admins)
    record("payments.setup_asked", actor=Actor.of(asker), merchant_id=merchant.id)
    try:
        db.session.commit()
    except IntegrityError:  # another request for this merchant was committed meanwhile
        db.session.rollback()
        existing = open_request(merchant.id)
        assert existing is not None
        return existing, False
    return request, True


def _credentials_id(merchant: Merchant) -> int | None:
    return db.session.scalar(select(PaymentCredentials.id).where(
        PaymentCredentials.merchant_id == merchant.id))


def close(merchant: Merchant, actor: Actor) -> bool:
    """The merchant's payments are set up: close its open request and tell the asker (no
    commit: the caller commits with the credentials). False when none was open."""
    request = open_request(merchant.id)
    if request is None:
        return False
    request.closed_at = clock.utcnow()
    request.closed_by_id = actor.id
    if request.asked_by_id is not None:
        db.session.add(_notice(request.asked_by_id, merchant, NoticeKind.PAYMENTS_SET_UP,
                               actor.id))
    record("payments.setup_done", actor=actor, merchant_id=merchant.id,
           detail={"asked_at": request.asked_at.isoformat()})
    return True


def open_requests() -> list[tuple[PaymentSetupRequest, Merchant, User | None]]:
    """Every open request, oldest first, with its merchant (the columns its name reads) and
    who asked (one statement)."""
    rows = db.session.execute(
        select(PaymentSetupRequest, Merchant, User)
        .join(Merchant, Merchant.id == PaymentSetupRequest.merchant_id)
        .outerjoin(User, User.id == PaymentSetupRequest.asked_by_id)
        .where(PaymentSetupRequest.closed_at.is_(None))
        .options(load_only(Merchant.id, Merchant.display_name, Merchant.legal_name,
                           Merchant.external_onboarding_id, Merchant.owner_id))
        .order_by(PaymentSetupRequest.asked_at, PaymentSetupRequest.id))
    return [(row[0], row[1], row[2]) for row in rows]


def open_count() -> Select:
    """How many requests are open, as a statement (the navigation's count reads it)."""
    return select(func.count(PaymentSetupRequest.id)).where(
        PaymentSetupRequest.closed_at.is_(None))
