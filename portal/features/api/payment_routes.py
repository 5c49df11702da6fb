"""The API's payments: holds placed, read, listed, captured, released and refunded, through the
payments services the pages use."""

from __future__ import annotations

from typing import Any

from flask import url_for
from sqlalchemy import select

from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.domain.api.scopes import Scope
from portal.domain.four_eyes import refund_allowance
from portal.domain.payments import actions, expiry, holds
from portal.domain.payments import credentials as creds
from portal.domain.payments.search.finding import PaymentFilters
from portal.domain.payments.service import Result, get_payment
from portal.features.api.merchant_routes import found_merchant
from portal.features.api.operations import Answer, Call, operation
from portal.features.api.problems import Problem
from portal.features.api.representations import cursor_after, payment_out, read_cursor
from portal.features.api.schemas import ActionBody, HoldBody, PaymentList, PaymentOut, PaymentQuery
from portal.gateway.payments.client import PaymentsClient


def _client(merchant: Merchant) -> PaymentsClient:
    current = creds.credentials_of(merchant)
    if current is None:
        raise Problem(409, "This merchant has no payment credentials yet: an admin sets them "
                           "up on the merchant's credentials page.")
    try:
        return creds.client_for(current_settings(), current)
    except creds.CredentialsError as exc:
        raise Problem(503, str(exc)) from None


def _payment(payment_id: int) -> Payment:
    payment = get_payment(payment_id)
    if payment is None:
        raise Problem(404, f"There is no payment {payment_id}.")
    return payment


def _refused(result: Result) -> Problem:
    status = 502 if result.outcome_unknown else 422
    return Problem(status, result.message or "The gateway refused it.", result.errors)


@operation("/payments", "GET", scope=Scope.PAYMENTS, summary="List payments",
           answer=PaymentList, query=PaymentQuery)
def list_payments(call: Call) -> Answer:
    """Payments by id, a page at a time, narrowed as the payments page narrows them."""
    query: PaymentQuery = call.query
    after = read_cursor(query.cursor)
    filters = PaymentFilters(merchant_id=query.merchantId, text=query.q, status=query.status)
    rows = list(db.session.scalars(
        select(Payment).where(*filters.conditions(), Payment.id > after)
        .order_by(Payment.id).limit(query.limit + 1)))
    more = len(rows) > query.limit
    rows = rows[:query.limit]
    return Answer(PaymentList(data=[payment_out(p) for p in rows],
                              nextCursor=cursor_after(rows[-1].id) if more else None))


@operation("/payments/<int:payment_id>", "GET", scope=Scope.PAYMENTS, summary="Read a payment",
           answer=PaymentOut)
def read_payment(call: Call, payment_id: int) -> Answer:
    """One payment, its refunds and what it allows now."""
    return Answer(payment_out(_payment(payment_id)))


@operation("/merchants/<int:merchant_id>/payments", "POST", scope=Scope.PAYMENTS, status=201,
           summary="Place a hold (authorize only); the customer pays at redirectUrl",
           answer=PaymentOut, body=HoldBody)
def create_hold(call: Call, merchant_id: int) -> Answer:
    """Store and send a hold, as the hold form does."""
    merchant = found_merchant(merchant_id)
    data: dict[str, Any] = call.body
    body = holds.hold_body(data, url_for("payments.callback", _external=True))
    result = holds.start_hold(_client(merchant), merchant, body, None, actor=call.actor)
    if not result.ok:
        raise _refused(result)
    payment = holds.by_txn_id(body["merchantTxnId"])
    assert payment is not None
    return Answer(payment_out(payment), 201, f"/api/v1/payments/{payment.id}")


def _act(call: Call, payment_id: int, action: str) -> Answer:
    payment = _payment(payment_id)
    body = ActionBody.model_validate(call.body or {})
    settings, merchant = current_settings(), found_merchant(payment.merchant_id)
    if action == actions.REFUND and refund_allowance.needs_approval(
            settings.four_eyes_refund_above, payment, body.amount):
        raise Problem(403, "This refund needs a second admin's approval: ask for it on the "
                           "payment's page in the portal.")
    ends = expiry.expiry_of(payment, settings, clock.utcnow())
    result = actions.perform(_client(merchant), payment, action, payment.action_nonce,
                             body.amount, body.again, actor=call.actor,
                             hold_flagged=bool(ends and ends.soon))
    if not result.ok:
        raise _refused(result)
    return Answer(payment_out(payment))


@operation("/payments/<int:payment_id>/capture", "POST", scope=Scope.PAYMENTS,
           summary="Capture a hold, wholly or in part", answer=PaymentOut, body=ActionBody)
def capture(call: Call, payment_id: int) -> Answer:
    """Capture (``amount``: part of it)."""
    return _act(call, payment_id, actions.CAPTURE)


@operation("/payments/<int:payment_id>/release", "POST", scope=Scope.PAYMENTS,
           summary="Release a hold (reverse the authorization)", answer=PaymentOut,
           body=ActionBody)
def release(call: Call, payment_id: int) -> Answer:
    """Release the hold."""
    return _act(call, payment_id, actions.REVERSE)


@operation("/payments/<int:payment_id>/refund", "POST", scope=Scope.PAYMENTS,
           summary="Refund a captured payment, wholly or in part", answer=PaymentOut,
           body=ActionBody)
def refund(call: Call, payment_id: int) -> Answer:
    """Refund (``amount``: part of it)."""
    return _act(call, payment_id, actions.REFUND)
