"""Placing a hold (initiate) and taking the customer's return from the hosted page (callback).

A payment is stored before its initiate is sent and keyed by its merchantTxnId, so a second
submission of the same form, or a retry after a lost answer, reuses the same identifiers.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from portal.audit.service import Actor, record
from portal.core import clock
from portal.core.clients import GatewayKeyMissing, gateway_public_key
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import ActionState, Payment
from portal.core.models.payment_link import LinkState
from portal.gateway.errors import GatewayError, ValidationFailed
from portal.gateway.jws import TokenError
from portal.gateway.payments_client import PaymentsClient, verify_callback_token
from portal.gateway.payments_shapes import CallbackClaims, InitiateRequest, PaymentStatus
from portal.gateway.shapes import FieldError, dump, validate_payload
from portal.payments import credentials as creds
from portal.payments import polling
from portal.payments.in_flight import claim, mark_unknown, release
from portal.payments.links.standing import live_link
from portal.payments.service import (
    OUTCOME_UNKNOWN,
    Result,
    failure_message,
    new_merchant_unique_id,
    new_nonce,
    payment_by_gid,
    unavailable_reason,
    unknown_reason,
)
from portal.payments.status_read import refresh

log = logging.getLogger("portal.payments")

INITIATE = "initiate"
#: The form field the hosted page posts the gateway-signed token in (gateway-facts B9).
TOKEN_FIELD = "x-gl-token"  # noqa: S105  # nosec B105  # a form field name, not a secret
CALLBACK_ACTOR = "customer callback"
CALLBACK = Actor(CALLBACK_ACTOR)
UNCONFIRMABLE = "We cannot confirm payments right now; the merchant will contact you."


class CallbackError(Exception):
    """A callback that cannot be taken: the HTTP status to answer and what to tell the customer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class CallbackOutcome:
    """The payment the customer came back for; ``confirmed`` when the status call agreed."""

    payment: Payment
    confirmed: bool


def hold_body(payload: dict[str, Any], callback_url: str) -> dict[str, Any]:
    """The initiate body for the form's data: authorize only, back to our callback."""
    unique_id = payload.get("merchantUniqueId") or new_merchant_unique_id()
    return {**payload, "merchantUniqueId": unique_id, "captureTxn": False,
            "merchantCallbackURL": callback_url}


def start_hold(client: PaymentsClient, merchant: Merchant, body: dict[str, Any],
               user_id: int | None, *, actor: Actor, by_link: bool = False) -> Result:
    """Validate, store and send a hold (audited as ``actor``'s); on success ``redirect_url`` is
    the hosted page. ``by_link``: the customer's payment link sends it (``stored_hold``)."""
    reason = unavailable_reason(merchant)
    if reason:
        return Result(False, reason)
    value, errors = validate_payload(InitiateRequest, body)
    if errors:
        return Result(False, "Please correct the fields marked below.", errors)
    sent = dump(value)
    payment, problem = stored_hold(merchant, sent, user_id, by_link=by_link)
    if payment is None or problem:
        return Result(False, problem)
    if payment.gid is not None:
        return Result(True, "This hold was already created; here is its checkout page again.",
                      redirect_url=payment.redirect_url)
    if not claim(payment, INITIATE):
        return Result(False, "This hold is being sent right now; wait a moment and open it from "
                             "the payments list.")
    try:
        answer = client.initiate(value)
    except GatewayError as exc:
        return _initiate_failed(payment, exc, actor)
    payment.gid = answer.payment_gid or None
    payment.status = PaymentStatus.INPROGRESS
    payment.redirect_url = answer.data.redirectUrl
    payment.status_url = answer.data.statusUrl
    payment.gateway_status = (answer.status or answer.data.status or "")[:64]
    release(payment)
    polling.due_now(payment, clock.utcnow())
    record("payment.initiate", actor=actor, merchant_id=merchant.id, gid=payment.gid or "",
           detail={"merchantTxnId": payment.merchant_txn_id, "amount": payment.amount,
                   "currency": payment.currency})
    db.session.commit()
    return Result(True, "Hold created; the customer continues on the gateway's page.",
                  redirect_url=payment.redirect_url)


def staff_form_refusal(payment: Payment) -> str | None:
    """Why the staff's hold form may not prefill, change or send this hold, or None.

    A hold whose customer holds a live payment link is the link's to send: the amount the email
    and the customer's page state is the amount, until the link is cancelled.
    """
    link = live_link(payment)
    if link is None:
        return None
    if link.state == LinkState.OPENING:
        return (f"The customer is opening the payment link of order {payment.merchant_txn_id} "
                "right now, so the hold is being sent from there: this form can neither change "
                "nor send it. Look at the hold's page in a moment.")
    return (f"The customer was emailed a payment link for order {payment.merchant_txn_id} and "
            "it is still live: the hold goes to the gateway, for the amount the email states, "
            "only when they open it, so this form can neither change nor send it. To change or "
            "send it here, cancel the link on the hold's page first (the customer can then no "
            "longer open it), or start a new hold.")


def stored_hold(merchant: Merchant, sent: dict[str, Any], user_id: int | None, *,
                by_link: bool = False) -> tuple[Payment | None, str]:
    """The stored payment for this merchantTxnId (created now if new), or why it cannot be sent;
    commits. A payment link stores its hold so, and sends it when the customer opens it.

    While the hold's link is live (``staff_form_refusal``) its data never changes, and only the
    link's own path (``by_link``: emailing the link, the customer opening it) may go on.
    """
    payment = _by_txn_id(sent["merchantTxnId"])
    if payment is None:
        payment = Payment(merchant_id=merchant.id, merchant_txn_id=sent["merchantTxnId"],
                          merchant_unique_id=sent["merchantUniqueId"], action_nonce=new_nonce(),
                          created_by_id=user_id)
        _take_body(payment, sent)
        db.session.add(payment)
        try:
            db.session.commit()
            return payment, ""
        except IntegrityError:  # the same form submitted twice at once: the other one stored it
            db.session.rollback()
            payment = _by_txn_id(sent["merchantTxnId"])
    if payment is None:
        return None, "These identifiers were already used by another hold; start a new hold."
    if payment.merchant_id != merchant.id:
        return None, "This form belongs to another merchant's hold; start a new hold."
    changed = payment.request_payload != sent
    if payment.gid is None and (changed or not by_link):
        refusal = staff_form_refusal(payment)
        if refusal:
            return None, refusal
    if payment.gid is None and changed:
        if payment.action_state == ActionState.UNKNOWN:
            return None, ("The first attempt may have created this hold with the data it sent; "
                          "send it again unchanged, or start a new hold for different data.")
        _take_body(payment, sent)
    return payment, ""


def _by_txn_id(merchant_txn_id: str) -> Payment | None:
    return db.session.scalar(select(Payment).where(Payment.merchant_txn_id == merchant_txn_id))


def _take_body(payment: Payment, sent: dict[str, Any]) -> None:
    payment.request_payload = sent
    payment.amount = sent["paymentData"]["totalAmount"]
    payment.currency = sent["paymentData"]["txnCurrency"]
    payment.updated_at = clock.utcnow()


def _initiate_failed(payment: Payment, exc: GatewayError, actor: Actor) -> Result:
    """Record a failed initiate; a lost answer leaves the payment 'outcome unknown'."""
    errors: list[FieldError] = []
    if exc.outcome_unknown:
        mark_unknown(payment)
        polling.due_now(payment, clock.utcnow())
        outcome = OUTCOME_UNKNOWN
        message = (f"{unknown_reason(exc)}, so we cannot tell whether the hold was created. "
                   f"The portal asks the gateway by its merchantTxnId {payment.merchant_txn_id} "
                   f"within a minute; do not start a new hold for this order.")
    else:
        release(payment)
        outcome = "refused"
        message = failure_message(exc, "hold")
        errors = exc.field_errors if isinstance(exc, ValidationFailed) else []
    record("payment.initiate", actor=actor, outcome=outcome, merchant_id=payment.merchant_id,
           detail={"merchantTxnId": payment.merchant_txn_id, "error": str(exc)})
    db.session.commit()
    return Result(False, message, errors, outcome_unknown=outcome == OUTCOME_UNKNOWN)


# ---------------------------------------------------------------- callback


def _gateway_key(settings: Settings) -> str:
    try:
        return gateway_public_key(settings)
    except GatewayKeyMissing:
        log.error("GATEWAY_PUBLIC_KEY_FILE is not set or not readable: callbacks are refused")
        raise CallbackError(503, UNCONFIRMABLE) from None


def _returned_payment(claims: CallbackClaims) -> Payment | None:
    """The payment a verified callback names: by its gid (``gid`` or ``x-gl-gid``), else by
    its merchantUniqueId (or ``x-gl-orderId``).

    A payment found by merchantUniqueId whose initiate answer was lost has no gid yet: it takes
    the token's (gateway-signed) gid, and the status read that follows confirms it.
    """
    gid = claims.payment_gid
    payment = payment_by_gid(gid) if gid else None
    if payment is None and claims.unique_id:
        payment = db.session.scalar(
            select(Payment).where(Payment.merchant_unique_id == claims.unique_id))
        if payment is not None and gid and payment.gid not in (None, gid):
            return None
        if payment is not None and payment.gid is None and gid:
            payment.gid = gid
    return payment


def take_callback(settings: Settings, token: str | None, now_ms: int,
                  actor: Actor) -> CallbackOutcome:
    """Verify the hosted page's ``x-gl-token``, then confirm the outcome with a status call
    (``actor``'s: the customer, :data:`CALLBACK`)."""
    if not token:
        raise CallbackError(400, "The payment response is incomplete.")
    try:
        claims = verify_callback_token(token, _gateway_key(settings), now_ms)
    except TokenError as exc:
        log.warning("payment callback refused: %s", exc)
        raise CallbackError(400, "The payment response could not be verified.") from None
    payment = _returned_payment(claims)
    if payment is None:
        log.warning("payment callback for an unknown gid")
        raise CallbackError(404, "We do not know this payment.")
    merchant = db.session.get(Merchant, payment.merchant_id)
    credentials = creds.credentials_of(merchant) if merchant else None
    if credentials is None:
        raise CallbackError(503, UNCONFIRMABLE)
    result = refresh(creds.client_for(settings, credentials), payment, actor)
    return CallbackOutcome(payment, result.ok)
