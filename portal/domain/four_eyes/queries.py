"""Reading requests for the pages: the Approvals page's lists, the navigation's count, a
merchant's and a payment's requests, and each state in words."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from sqlalchemy import ColumnElement, Select, and_, func, or_, select

from portal.core import clock
from portal.core.db import db
from portal.core.models.approval import ApprovalKind, ApprovalRequest, ApprovalState
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment, PaymentRefund
from portal.core.models.user import User
from portal.domain.users.vouching import vouched_for, vouchers_of

RECENT = 50

STATE_WORDS = {
    ApprovalState.PENDING: "Waiting for a second admin",
    ApprovalState.RUNNING: "Approved, being carried out",
    ApprovalState.DONE: "Approved and done",
    ApprovalState.FAILED: "Approved, not carried out",
    ApprovalState.UNKNOWN: "Approved, outcome unknown",
    ApprovalState.REJECTED: "Rejected",
    ApprovalState.EXPIRED: "Expired unapproved",
}

KIND_WORDS = {
    ApprovalKind.REFUND: "Large refund",
    ApprovalKind.MERCHANT_KEY: "Merchant payment key",
    ApprovalKind.PORTFOLIO_KEY: "Portfolio key",
    ApprovalKind.ADMIN_ROLE: "New administrator",
    ApprovalKind.API_KEY: "API key with payments",
    ApprovalKind.CHANGE_REQUEST: "Change of locked details",
}

#: Why an admin the asker vouched for may not approve (they could be the asker signed in).
VOUCHED = ("The admin who asked added your account, made it an administrator or gave it a "
           "one-time password, so your approval would not be a second person's: another admin "
           "must approve it.")


def state_now(request: ApprovalRequest, now: datetime | None = None) -> ApprovalState:
    """The request's state as it stands now: a pending one past its 24 hours reads expired
    even before the sweep marks it."""
    if request.state == ApprovalState.PENDING and request.expires_at <= (now or clock.utcnow()):
        return ApprovalState.EXPIRED
    return ApprovalState(request.state)


def _open(now: datetime | ColumnElement[datetime]) -> ColumnElement[bool]:
    return and_(ApprovalRequest.state == ApprovalState.PENDING, ApprovalRequest.expires_at > now)


def pending() -> list[ApprovalRequest]:
    """Requests still waiting, oldest first (the first to lapse on top)."""
    return list(db.session.scalars(select(ApprovalRequest).where(_open(clock.utcnow()))
                                   .order_by(ApprovalRequest.requested_at, ApprovalRequest.id)))


def decided(limit: int = RECENT) -> list[ApprovalRequest]:
    """The latest requests no longer waiting, newest first."""
    return list(db.session.scalars(
        select(ApprovalRequest).where(~_open(clock.utcnow()))
        .order_by(ApprovalRequest.requested_at.desc(), ApprovalRequest.id.desc()).limit(limit)))


def waiting_count(user_id: int | ColumnElement[int],
                  now: datetime | ColumnElement[datetime] | None = None) -> Select[tuple[int]]:
    """The count of pending requests ``user_id`` may approve at ``now`` (their own, and those
    of an admin who vouched for their account, are not counted), as a query (the navigation
    reads it with its other counts, the two values bound)."""
    return select(func.count(ApprovalRequest.id)).where(
        _open(clock.utcnow() if now is None else now),
        or_(ApprovalRequest.requested_by_id.is_(None),
            ApprovalRequest.requested_by_id != user_id),
        ~vouched_for(user_id, ApprovalRequest.requested_by_id))


def waiting_for(user_id: int) -> int:
    """How many pending requests ``user_id`` may approve (see :func:`waiting_count`)."""
    return db.session.scalar(waiting_count(user_id)) or 0


def barred(request: ApprovalRequest, user_id: int) -> bool:
    """True when the request's asker vouched for ``user_id``'s account (who then may not
    approve it); the page hides its Approve button."""
    approver = db.session.get(User, user_id)
    return approver is not None and request.requested_by_id in vouchers_of(approver)


def of_merchant(merchant_id: int, limit: int = RECENT) -> list[ApprovalRequest]:
    """A merchant's requests, newest first: what ops see on its payments page."""
    return list(db.session.scalars(
        select(ApprovalRequest).where(ApprovalRequest.merchant_id == merchant_id)
        .order_by(ApprovalRequest.requested_at.desc(), ApprovalRequest.id.desc()).limit(limit)))


def of_payment(payment_id: int) -> list[ApprovalRequest]:
    """A payment's refund requests, newest first."""
    return list(db.session.scalars(
        select(ApprovalRequest).where(ApprovalRequest.payment_id == payment_id)
        .order_by(ApprovalRequest.requested_at.desc(), ApprovalRequest.id.desc())))


def awaiting_refunds(requests: list[ApprovalRequest], now: datetime | None = None) -> Decimal:
    """The total of the refunds among ``requests`` still waiting for a second admin."""
    return sum((Decimal(r.payload["amount"]) for r in requests
                if r.kind == ApprovalKind.REFUND
                and state_now(r, now) == ApprovalState.PENDING), Decimal(0))


@dataclass(frozen=True)
class Subject:
    """What a request is about, for its card: the merchant and the payment, when it has them."""

    merchant: Merchant | None
    payment: Payment | None
    #: The payment's refunds so far, for its status in words.
    refunds: list[PaymentRefund] = field(default_factory=list)


def subjects(requests: list[ApprovalRequest]) -> dict[int, Subject]:
    """Each request's merchant, payment and refunds, by request id: three queries at most
    for the whole list."""
    merchant_ids = {r.merchant_id for r in requests if r.merchant_id is not None}
    payment_ids = {r.payment_id for r in requests if r.payment_id is not None}
    merchants = {m.id: m for m in db.session.scalars(
        select(Merchant).where(Merchant.id.in_(merchant_ids)))} if merchant_ids else {}
    payments: dict[int, Payment] = {}
    refunds: dict[int, list[PaymentRefund]] = {}
    if payment_ids:
        payments = {p.id: p for p in db.session.scalars(
            select(Payment).where(Payment.id.in_(payment_ids)))}
        for refund in db.session.scalars(select(PaymentRefund).where(
                PaymentRefund.payment_id.in_(payment_ids)).order_by(PaymentRefund.id)):
            refunds.setdefault(refund.payment_id, []).append(refund)
    return {r.id: Subject(merchants.get(r.merchant_id or 0), payments.get(r.payment_id or 0),
                          refunds.get(r.payment_id or 0, [])) for r in requests}
