"""The API's payment links: a hold stored and its link emailed to the customer, read, resent
and cancelled, through the payment links' own service (with its guard that refuses paused
merchants and those without payment credentials)."""

from __future__ import annotations

from typing import Any

from flask import url_for

from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.payment import Payment
from portal.core.models.payment_link import LinkState, PaymentLink
from portal.domain.api.scopes import Scope
from portal.domain.payments import holds
from portal.domain.payments.links import sending, standing
from portal.domain.payments.service import get_payment
from portal.features.api.merchant_routes import found_merchant
from portal.features.api.more_schemas import PaymentLinkOut
from portal.features.api.operations import Answer, Call, operation
from portal.features.api.problems import Problem
from portal.features.api.representations import payment_out
from portal.features.api.schemas import HoldBody

RULE = "/payments/<int:payment_id>/link"


def _link_out(link: PaymentLink, payment: Payment, message: str) -> PaymentLinkOut:
    now = clock.utcnow()
    return PaymentLinkOut(id=link.id, standing=str(standing.standing(link, payment, now)),
                          standingLabel=standing.label_of(link, payment, now),
                          expiresAt=link.expires_at, emailedAt=link.emailed_at,
                          emailsSent=link.emails_sent, message=message,
                          payment=payment_out(payment))


def _linked(payment_id: int) -> tuple[PaymentLink, Payment]:
    payment = get_payment(payment_id)
    link = sending.link_of(payment) if payment is not None else None
    if payment is None or link is None:
        raise Problem(404, f"There is no payment link for payment {payment_id}.")
    return link, payment


@operation("/merchants/<int:merchant_id>/payment-links", "POST", scope=Scope.PAYMENTS,
           status=201, summary="Store a hold and email its payment link to the customer "
                               "(paymentData.billingData.emailId)",
           answer=PaymentLinkOut, body=HoldBody)
def create_payment_link(call: Call, merchant_id: int) -> Answer:
    """Store the hold without sending it and email its link, as the new-hold page's "Email the
    customer a payment link" button does."""
    merchant = found_merchant(merchant_id)
    data: dict[str, Any] = call.body
    body = holds.hold_body(data, url_for("payments.callback", _external=True))
    sent = sending.hold_by_link(current_settings(), merchant, body, call.actor)
    payment = get_payment(sent.payment_id) if sent.payment_id is not None else None
    link = sending.link_of(payment) if payment is not None else None
    if payment is None or link is None:
        raise Problem(422 if sent.errors else 409, sent.message, sent.errors)
    if link.state == LinkState.CANCELLED:
        raise Problem(409, sent.message)
    return Answer(_link_out(link, payment, sent.message), 201, f"/api/v1{RULE}".replace(
        "<int:payment_id>", str(payment.id)))


@operation(RULE, "GET", scope=Scope.PAYMENTS, summary="Read a payment link",
           answer=PaymentLinkOut)
def read_payment_link(call: Call, payment_id: int) -> Answer:
    """The payment's link, where it stands, and the hold."""
    link, payment = _linked(payment_id)
    return Answer(_link_out(link, payment, standing.label_of(link, payment, clock.utcnow())))


def _moved(payment_id: int, sent: sending.Sent) -> Answer:
    """The link after a resend or cancel; 409 when it was opened or cancelled already, or the
    resent email could not go (the message says which)."""
    if not sent.ok:
        raise Problem(409, sent.message)
    link, payment = _linked(payment_id)
    db.session.refresh(link)  # the service moved it with a conditional UPDATE
    return Answer(_link_out(link, payment, sent.message))


@operation(RULE + "/resend", "POST", scope=Scope.PAYMENTS,
           summary="Email the customer a new link with a new lifetime (the older one stops)",
           answer=PaymentLinkOut)
def resend_payment_link(call: Call, payment_id: int) -> Answer:
    """Resend, as the hold's page does: only while nobody opened the link."""
    _link, payment = _linked(payment_id)
    return _moved(payment_id, sending.resend(current_settings(), payment,
                                             found_merchant(payment.merchant_id), call.actor))


@operation(RULE + "/cancel", "POST", scope=Scope.PAYMENTS,
           summary="Withdraw the link so the customer can no longer open it",
           answer=PaymentLinkOut)
def cancel_payment_link(call: Call, payment_id: int) -> Answer:
    """Cancel, as the hold's page does: only while nobody opened the link."""
    _link, payment = _linked(payment_id)
    return _moved(payment_id, sending.cancel(payment, call.actor))
