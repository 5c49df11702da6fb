"""What every payments page shares: who may take payments, finding payments, the one-call-at-
a-time claim on a payment, and applying the gateway's status (reconciling a lost answer).

Functions take plain arguments and commit their own unit of work; nothing here knows about
requests or forms.
"""

from __future__ import annotations

import math
import secrets
import string
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal

from sqlalchemy import func, select, update

from portal import clock
from portal.audit import record
from portal.db import db
from portal.gateway.errors import (
    GatewayError,
    GatewayUnavailable,
    NotFound,
    Unauthorized,
    ValidationFailed,
)
from portal.gateway.payments_client import PaymentsClient
from portal.gateway.payments_shapes import PaymentStatus, PaymentStatusData, StatusResponse
from portal.gateway.shapes import FieldError
from portal.models.merchant import Merchant
from portal.models.payment import PENDING, ActionState, Payment, PaymentRefund, RefundState
from portal.pagination import Page

APPROVED = "APPROVED"
#: The audit outcome of a call whose answer was lost.
OUTCOME_UNKNOWN = "unknown"
PAGE_SIZE = 50
#: The follow-up calls, as ``Payment.action_name`` names them.
CAPTURE = "capture"
REVERSE = "reverse"
REFUND = "refund"
#: A call still marked as sending after this long lost its answer (the process died mid-call).
STALE_SENDING = timedelta(minutes=5)
#: Statuses a refund may follow.
REFUNDABLE = (PaymentStatus.SENT_FOR_CAPTURE, PaymentStatus.SENT_FOR_REFUND)
#: Statuses of a payment whose amount was authorised at some point (held, captured, released).
AUTHORISED = (PaymentStatus.AUTHORIZED, *REFUNDABLE, PaymentStatus.REVERSED)
#: The list's status filter: the gateway's statuses and ours before the gateway answered.
STATUS_CHOICES = (PENDING, *(status.value for status in PaymentStatus))
_ALPHANUMERIC = string.ascii_uppercase + string.digits


@dataclass
class Result:
    """How a payments operation went; ``errors`` use the gateway's field paths."""

    ok: bool
    message: str = ""
    errors: list[FieldError] = field(default_factory=list)
    redirect_url: str | None = None
    #: The call was sent and its answer lost.
    outcome_unknown: bool = False


@dataclass(frozen=True)
class PaymentRow:
    """One list row: the payment and its merchant's name."""

    payment: Payment
    merchant_name: str


PaymentPage = Page[PaymentRow]


def failure_message(exc: GatewayError, what: str) -> str:
    """What to tell ops about a gateway call that certainly did not go through."""
    if isinstance(exc, GatewayUnavailable):
        return f"The gateway could not be reached, so the {what} was not sent; try again."
    if isinstance(exc, Unauthorized):
        return ("The gateway refused the merchant's credentials: check that the public key and "
                "kid are registered with the gateway for this MID.")
    if isinstance(exc, ValidationFailed) and exc.field_errors:
        return f"The gateway refused the {what}: " + "; ".join(
            e.message for e in exc.field_errors)
    if exc.display_message:  # no field to attach it to: the gateway's words for a person
        return f"The gateway refused the {what}: {exc.display_message}"
    return f"The gateway refused the {what} ({exc.message})."


def unavailable_reason(merchant: Merchant) -> str | None:
    """Why the merchant cannot take payments, or None when it can."""
    if merchant.status == APPROVED:
        return None
    state = merchant.status or "not created at the gateway yet"
    return (f"Payments are available once the gateway has APPROVED the merchant; this merchant "
            f"is {state}.")


def _token(prefix: str, length: int) -> str:
    return prefix + "".join(secrets.choice(_ALPHANUMERIC) for _ in range(length - len(prefix)))


def new_merchant_txn_id() -> str:
    """A fresh merchantTxnId: 24 letters and digits."""
    return _token("PT", 24)


def new_merchant_unique_id() -> str:
    """A fresh merchantUniqueId: 32 letters and digits (the gateway takes 15 to 40)."""
    return _token("PU", 32)


def new_nonce() -> str:
    """A one-time token for the next action form of a payment."""
    return secrets.token_urlsafe(32)


def get_payment(payment_id: int) -> Payment | None:
    """The payment with this id, or None."""
    return db.session.get(Payment, payment_id)


def payment_by_gid(gid: str) -> Payment | None:
    """The payment the gateway knows as ``gid``, or None."""
    return db.session.scalar(select(Payment).where(Payment.gid == gid))


def refunds_of(payment: Payment) -> list[PaymentRefund]:
    """The payment's refunds, oldest first."""
    return list(db.session.scalars(
        select(PaymentRefund).where(PaymentRefund.payment_id == payment.id)
        .order_by(PaymentRefund.id)))


def refundable(payment: Payment, refunds: list[PaymentRefund]) -> Decimal:
    """What may still be refunded: the capture less every refund not known to have failed."""
    if payment.captured_amount is None:
        return Decimal(0)
    taken = sum((Decimal(r.amount) for r in refunds if r.state != RefundState.FAILED), Decimal(0))
    return Decimal(payment.captured_amount) - taken


def list_payments(merchant_id: int | None = None, status: str = "", page: int = 1,
                  per_page: int = PAGE_SIZE) -> PaymentPage:
    """Payments newest first, of one merchant or all, optionally of one status: two queries."""
    filters = []
    if merchant_id is not None:
        filters.append(Payment.merchant_id == merchant_id)
    if status:
        filters.append(Payment.status == status)
    total = db.session.scalar(select(func.count(Payment.id)).where(*filters)) or 0
    page = min(max(page, 1), max(1, math.ceil(total / per_page)))
    rows = db.session.execute(
        select(Payment, Merchant)
        .join(Merchant, Merchant.id == Payment.merchant_id)
        .where(*filters)
        .order_by(Payment.created_at.desc(), Payment.id.desc())
        .limit(per_page).offset((page - 1) * per_page))
    return PaymentPage([PaymentRow(p, m.name) for p, m in rows], total, page, per_page)


# ---------------------------------------------------------------- one call at a time


def claim(payment: Payment, action: str, nonce: str | None = None) -> bool:
    """Mark one gateway call as sending, atomically; False when another claim won.

    With a ``nonce`` (the action forms) the payment must be idle and the nonce the current one,
    which is replaced; without (a resent initiate, keyed by its merchantTxnId) it must not be
    sending already. One conditional UPDATE decides, so two requests can never both send.
    """
    db.session.commit()  # the UPDATE starts its own transaction: no stale read to upgrade
    now = clock.utcnow()
    conditions = [Payment.id == payment.id]
    if nonce is None:
        conditions.append(Payment.action_state != ActionState.SENDING)
    else:
        conditions += [Payment.action_nonce == nonce, Payment.action_state == ActionState.IDLE]
    claimed = db.session.execute(
        update(Payment).where(*conditions)
        .values(action_nonce=new_nonce(), action_state=ActionState.SENDING, action_name=action,
                action_started_at=now, updated_at=now)
        .execution_options(synchronize_session=False))
    db.session.commit()
    db.session.refresh(payment)
    return claimed.rowcount == 1


def release(payment: Payment) -> None:
    """The call in flight has a known outcome: the payment takes actions again."""
    payment.action_state = ActionState.IDLE
    payment.action_name = None
    payment.action_started_at = None
    payment.action_txn_id = None
    payment.action_amount = None
    payment.updated_at = clock.utcnow()


def mark_unknown(payment: Payment) -> None:
    """The call was sent and its answer lost: nothing more is sent until the status is read."""
    payment.action_state = ActionState.UNKNOWN
    payment.updated_at = clock.utcnow()


def record_sending(payment: Payment, merchant_txn_id: str, amount: str | None) -> None:
    """Keep, before it is sent, what the claimed call will send: our own ledger."""
    payment.action_txn_id = merchant_txn_id
    payment.action_amount = amount
    db.session.commit()


def took_effect(payment: Payment, status: str | None) -> None:
    """The call in flight happened at the gateway: enter it in the ledger (its status if told)."""
    if payment.action_name == CAPTURE:
        payment.captured_amount = payment.action_amount
    for refund in refunds_of(payment):
        if refund.merchant_txn_id == payment.action_txn_id:
            refund.state = RefundState.SENT
    if status:
        payment.status = status
    payment.updated_at = clock.utcnow()


def never_happened(payment: Payment) -> None:
    """The call in flight never reached the gateway: a refund's amount is free again."""
    for refund in refunds_of(payment):
        if (refund.merchant_txn_id == payment.action_txn_id
                and refund.state in (RefundState.SENDING, RefundState.UNKNOWN)):
            refund.state = RefundState.FAILED


def needs_reconciling(payment: Payment) -> bool:
    """Whether the call in flight lost its answer (or its process)."""
    if payment.action_state == ActionState.UNKNOWN:
        return True
    started = payment.action_started_at
    return (payment.action_state == ActionState.SENDING and started is not None
            and clock.utcnow() - started > STALE_SENDING)


# ---------------------------------------------------------------- the gateway's status


def apply_status(payment: Payment, data: PaymentStatusData) -> None:
    """Take the gateway's view of the payment's status (amounts come from our own ledger)."""
    payment.status = data.status
    payment.reason_code = (data.reasonCode or "")[:32]
    payment.message = (data.detailedMessage or "")[:300]
    payment.updated_at = clock.utcnow()


def _read_status(client: PaymentsClient, payment: Payment) -> StatusResponse:
    """The status from the pre-authenticated statusUrl; the signed call if that is refused."""
    if payment.status_url:
        try:
            return client.status_by_url(payment.status_url)
        except (Unauthorized, ValueError):  # its token expired, or it names another gateway
            pass
    return client.status(payment.gid or "")


def _reached_gateway(client: PaymentsClient, payment: Payment) -> bool:
    """Whether the gateway has the call in flight: a status read of its own merchantTxnId.

    404 means the gateway never got it; any other failure propagates (we still cannot tell).
    """
    if payment.action_name not in (CAPTURE, REVERSE, REFUND) or not payment.action_txn_id:
        return False  # nothing was sent under an id of its own
    try:
        client.status(payment.action_txn_id)
    except NotFound:
        return False
    return True


def _settle(client: PaymentsClient, payment: Payment) -> str | None:
    """Settle a call whose answer was lost; the name of the call settled, if any."""
    if not needs_reconciling(payment):
        return None
    settled = payment.action_name
    if _reached_gateway(client, payment):
        took_effect(payment, None)
    else:
        never_happened(payment)
    release(payment)
    return settled


def refresh(client: PaymentsClient, payment: Payment, actor_label: str | None = None) -> Result:
    """Read the gateway's status, apply it, and settle a call whose answer was lost."""
    if payment.gid is None:
        return Result(False, "The gateway has not confirmed this hold yet, so there is no status "
                             "to read; send the hold again from its form.")
    try:
        answer = _read_status(client, payment)
        settled = _settle(client, payment)
    except GatewayError as exc:
        record("payment.refresh", outcome="failed", merchant_id=payment.merchant_id,
               gid=payment.gid, detail={"error": str(exc)}, actor_label=actor_label)
        db.session.commit()
        return Result(False, "The gateway's status could not be read; nothing was changed. "
                             "Try again in a moment.")
    apply_status(payment, answer.data)
    detail = {"status": payment.status, **({"settled": settled} if settled else {})}
    record("payment.refresh", merchant_id=payment.merchant_id, gid=payment.gid, detail=detail,
           actor_label=actor_label)
    db.session.commit()
    return Result(True, f"The gateway says the payment is {payment.status}.")
