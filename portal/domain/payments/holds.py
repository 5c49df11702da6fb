"""Placing a hold (initiate): stored before it is sent, keyed by its merchantTxnId, so a second
submission of the same form, or a retry after a lost answer, reuses the same identifiers
(docs/gateway-contract.md, revision 4, "Idempotency").

A retry resends the same merchantTxnId and merchantUniqueId: the gateway may answer with the
original payment, or call the ids a duplicate, which a status read by the merchantUniqueId then
settles (the hold exists, or never arrived). A second hold for the same order while the first
one's outcome is unknown is refused until that one is settled.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import ActionState, Payment
from portal.core.models.payment_link import LinkState
from portal.domain.audit.service import Actor, record
from portal.domain.pausing.gate import pass_gate
from portal.domain.payments import polling
from portal.domain.payments.in_flight import claim, mark_unknown, release
from portal.domain.payments.links.standing import live_link
from portal.domain.payments.service import (
    OUTCOME_UNKNOWN,
    Result,
    failure_message,
    new_merchant_unique_id,
    new_nonce,
    unavailable_reason,
    unknown_reason,
)
from portal.domain.payments.status_apply import apply_status
from portal.domain.payments.status_read import settle_initiate
from portal.domain.payments.wording import money
from portal.gateway.errors import GatewayError, MayAlreadyExist, ValidationFailed
from portal.gateway.payments.client import PaymentsClient
from portal.gateway.payments.requests import InitiateRequest
from portal.gateway.payments.words import PaymentStatus
from portal.gateway.shapes import FieldError, dump, validate_payload

log = logging.getLogger("portal.payments")

INITIATE = "initiate"


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
    twin = unsettled_twin(payment)
    if twin is not None:
        return Result(False, _twin_words(twin))
    if not claim(payment, INITIATE, gate=partial(pass_gate, merchant.id)):
        db.session.refresh(merchant)
        return Result(False, unavailable_reason(merchant) or (
            "This hold is being sent right now; wait a moment and open it from the payments "
            "list."))
    try:
        answer = client.initiate(value)
    except MayAlreadyExist as exc:
        return _settle_duplicate(client, payment, exc, actor)
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
    payment = by_txn_id(sent["merchantTxnId"])
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
            payment = by_txn_id(sent["merchantTxnId"])
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


def unsettled_twin(payment: Payment) -> Payment | None:
    """Another hold for the same order (merchant, customer, amount and currency) whose initiate
    answer was lost: it may exist at the gateway, so this one waits until it is settled."""
    twin = db.session.scalar(
        select(Payment).where(Payment.id != payment.id,
                              Payment.merchant_id == payment.merchant_id,
                              Payment.amount_units == payment.amount_units,
                              Payment.currency == payment.currency,
                              Payment.customer_email.is_(None) if payment.customer_email is None
                              else Payment.customer_email == payment.customer_email,
                              Payment.gid.is_(None), Payment.action_name == INITIATE,
                              Payment.action_state != ActionState.IDLE)
        .order_by(Payment.id).limit(1))
    return twin


def _twin_words(twin: Payment) -> str:
    return (f"Another hold of {money(twin.amount, twin.currency)} for this customer (order "
            f"reference {twin.merchant_txn_id}) was sent moments ago and the gateway's answer "
            "was lost, so it may exist. Nothing was sent now: open that hold and use Refresh "
            "status (the portal also asks the gateway within a minute). Once it is settled, "
            "send this one if the customer still has to pay.")


def _settle_duplicate(client: PaymentsClient, payment: Payment, exc: MayAlreadyExist,
                      actor: Actor) -> Result:
    """The gateway called our ids a duplicate: it may have the hold from an earlier attempt.
    A status read by the merchantUniqueId decides, never "refused"."""
    mark_unknown(payment)
    db.session.commit()
    try:
        answer = settle_initiate(client, payment)
    except GatewayError:
        return _initiate_failed(payment, exc, actor)
    if answer is None:  # the gateway says duplicate but has nothing under it: ask again later
        return _initiate_failed(payment, exc, actor)
    apply_status(payment, answer, actor)
    polling.due_now(payment, clock.utcnow())
    record("payment.initiate", actor=actor, outcome="duplicate", merchant_id=payment.merchant_id,
           gid=payment.gid or "", detail={"merchantTxnId": payment.merchant_txn_id,
                                           "status": payment.gateway_status})
    db.session.commit()
    return Result(False, "The gateway already had this hold from the first attempt, whose answer "
                         "was lost: it is one hold, not two, and nothing was sent twice. Its "
                         "checkout address was in the lost answer; if the customer still has "
                         "to pay, start a new hold (this one ends unpaid at the gateway).")


def by_txn_id(merchant_txn_id: str) -> Payment | None:
    """The payment stored for the order reference ``merchant_txn_id``, if any."""
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
                   f"The portal asks the gateway by its merchantUniqueId within a minute; do "
                   f"not start a new hold for this order (order reference "
                   f"{payment.merchant_txn_id}).")
    else:
        release(payment)
        outcome = "refused"
        message = failure_message(exc, "hold")
        errors = exc.field_errors if isinstance(exc, ValidationFailed) else []
    record("payment.initiate", actor=actor, outcome=outcome, merchant_id=payment.merchant_id,
           detail={"merchantTxnId": payment.merchant_txn_id, "error": str(exc)})
    db.session.commit()
    return Result(False, message, errors, outcome_unknown=outcome == OUTCOME_UNKNOWN)
