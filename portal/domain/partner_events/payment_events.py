"""The payment events, as their payloads say them: the ids and amounts the API shows
(``/api/v1/payments``), never a card number. Each happens once per payment (a refund: once per
refund), however many reads report it: the once key decides. No commit."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from portal.core.db import db
from portal.core.models.payment import Payment, PaymentRefund
from portal.core.models.payment_link import LinkState, PaymentLink
from portal.domain.partner_events.catalogue import EventType
from portal.domain.partner_events.recording import add_event
from portal.gateway.payments.words import PaymentStatus

#: The event a payment's move to a status tells of (other moves tell nothing).
STATUS_EVENTS: dict[str, EventType] = {
    PaymentStatus.AUTHORIZED: EventType.PAYMENT_AUTHORIZED,
    PaymentStatus.CAPTURE_STARTED: EventType.PAYMENT_CAPTURED,
    PaymentStatus.SENT_FOR_CAPTURE: EventType.PAYMENT_CAPTURED,
    PaymentStatus.CAPTURED: EventType.PAYMENT_CAPTURED,
    PaymentStatus.REVERSED: EventType.PAYMENT_RELEASED,
    PaymentStatus.CANCELLED: EventType.PAYMENT_RELEASED,
}


def payment_data(payment: Payment) -> dict[str, Any]:
    """The payment as ``GET /api/v1/payments/{id}`` names it."""
    return {"paymentId": payment.id, "merchantId": payment.merchant_id,
            "merchantTxnId": payment.merchant_txn_id, "status": payment.status,
            "amount": payment.amount, "currency": payment.currency,
            "capturedAmount": payment.captured_amount}


def status_moved(payment: Payment, new: str) -> None:
    """The payment moved to ``new``: its event, once; an authorisation through a payment link
    also tells that the link was paid."""
    type_ = STATUS_EVENTS.get(new)
    if type_ is None:
        return
    add_event(type_, payment_data(payment), once_key=f"payment:{payment.id}:{type_.value}")
    if type_ == EventType.PAYMENT_AUTHORIZED:
        link = _opened_link(payment)
        if link is not None:
            add_event(EventType.PAYMENT_LINK_PAID,
                      {**payment_data(payment), "paymentLinkId": link.id},
                      once_key=f"payment_link:{link.id}:paid")


def action_took_effect(payment: Payment, type_: EventType, refund: PaymentRefund | None) -> None:
    """A capture, release or refund the portal sent took effect at the gateway: its event, once
    (a refund once per refund)."""
    data = payment_data(payment)
    once_key = f"payment:{payment.id}:{type_.value}"
    if refund is not None:
        data["refund"] = {"merchantTxnId": refund.merchant_txn_id, "amount": refund.amount}
        once_key = f"refund:{refund.merchant_txn_id}"
    add_event(type_, data, once_key=once_key)


def _opened_link(payment: Payment) -> PaymentLink | None:
    return db.session.scalar(select(PaymentLink).where(PaymentLink.payment_id == payment.id,
                                                       PaymentLink.state == LinkState.OPENED))
