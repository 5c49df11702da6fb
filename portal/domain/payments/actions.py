"""Capture, reverse and refund: each checked against the payment's state, claimed with the
form's one-time nonce so it is sent at most once, recorded in the audit trail.

Each call has a merchantTxnId of its own, kept with its amount before it is sent (our own
ledger: the gateway's answers and status carry no running totals we rely on). A call whose
answer is lost, or comes back in a shape we cannot read, leaves the payment 'outcome unknown';
nothing more is sent for it until Refresh status has read the gateway's view, including a
status read of that call's own merchantTxnId (``status_read.refresh``).
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

from portal.core import clock
from portal.core.db import db
from portal.core.models.payment import ActionState, Payment, PaymentRefund, RefundState
from portal.core.payment_statuses import REFUNDABLE
from portal.domain.audit.service import Actor, record
from portal.domain.payments import polling
from portal.domain.payments.in_flight import (
    claim,
    keep_answer_gid,
    mark_unknown,
    never_happened,
    record_sending,
    release,
    took_effect,
)
from portal.domain.payments.service import (
    CAPTURE,
    OUTCOME_UNKNOWN,
    REFUND,
    REVERSE,
    Result,
    failure_message,
    new_merchant_txn_id,
    new_merchant_unique_id,
    refundable,
    refunds_of,
    unknown_reason,
)
from portal.domain.payments.status_read import OTHER_PAYMENT
from portal.domain.payments.wording import sent_message
from portal.gateway.errors import (
    Conflict,
    Declined,
    GatewayError,
    NotFound,
    UnexpectedAnswer,
    ValidationFailed,
)
from portal.gateway.payments.answers import ActionResponse, RefundResponse
from portal.gateway.payments.client import PaymentsClient
from portal.gateway.payments.vocabulary import check_amount
from portal.gateway.payments.words import PaymentStatus

ACTIONS = (CAPTURE, REVERSE, REFUND)
_NOUNS = {CAPTURE: "capture", REVERSE: "reversal", REFUND: "refund", "initiate": "hold"}
#: Refusals of a capture that, once the hold's expiry is flagged, say the authorisation ended.
REFUSALS = (Declined, ValidationFailed, Conflict, NotFound)
#: A refund of the same amount within this time is sent only when the form says it is meant.
REPEAT_WINDOW = timedelta(minutes=10)


def _amount_problem(amount: str | None, limit: Decimal, currency: str, what: str) -> str | None:
    """Why ``amount`` cannot be used (format, zero, above ``limit``), or None."""
    if amount is None:
        return None
    try:
        check_amount(amount)
    except ValueError as exc:
        return str(exc)
    if Decimal(amount) > limit:
        return f"At most {limit} {currency} can be {what}."
    return None


def state_refusal(payment: Payment, action: str, refunds: list[PaymentRefund]) -> str | None:
    """Why this action cannot be taken on the payment as it stands, or None."""
    if payment.action_state == ActionState.UNKNOWN:
        return (f"The outcome of the last {_NOUNS.get(payment.action_name or '', 'call')} is "
                f"unknown; use Refresh status before anything else.")
    if payment.action_state == ActionState.SENDING:
        return "Another action is being sent for this payment right now; reload in a moment."
    if action == CAPTURE and payment.captured_amount is not None:
        return (f"This payment was already captured ({payment.captured_amount} "
                f"{payment.currency}); the gateway allows one capture per authorisation.")
    if action in (CAPTURE, REVERSE) and payment.status != PaymentStatus.AUTHORIZED:
        return f"Only an authorised hold can take a {_NOUNS[action]}; this payment is " \
               f"{payment.status}."
    if action == REFUND and payment.status not in REFUNDABLE:
        return f"Only a captured payment can be refunded; this payment is {payment.status}."
    if action == REFUND and refundable(payment, refunds) <= 0:
        return "Everything captured has been refunded already."
    return None


def capture_limit(payment: Payment) -> Decimal | None:
    """The most that may be captured: the amount held, or for a partial approval what a status
    read confirmed (None: no read has said how much, so nothing may be captured yet)."""
    if not payment.partial_approval:
        return payment.authorised
    if payment.confirmed_amount is None:
        return None
    try:
        return min(Decimal(payment.confirmed_amount), payment.authorised)
    except ArithmeticError:
        return None


def amount_refusal(payment: Payment, action: str, amount: str | None,
                   refunds: list[PaymentRefund]) -> str | None:
    """Why ``amount`` does not suit this action (absent: the whole amount), or None."""
    if action == CAPTURE:
        limit = capture_limit(payment)
        if limit is None:
            return ("The gateway approved only part of this hold and no status read has said "
                    "how much; use Refresh status before capturing.")
        if amount is None and limit < payment.authorised:
            amount = str(payment.authorised)
        return _amount_problem(amount, limit, payment.currency,
                               "captured (what the gateway approved)" if payment.partial_approval
                               else "captured")
    if action == REFUND and amount is None:
        return "Enter the amount to refund."
    if action == REFUND:
        return _amount_problem(amount, refundable(payment, refunds), payment.currency,
                               "refunded (what is left of the captured amount)")
    return None


def recent_refund(refunds: list[PaymentRefund], amount: str | None = None) -> PaymentRefund | None:
    """The latest refund (of ``amount``, if given) not known to have failed, within
    REPEAT_WINDOW."""
    since = clock.utcnow() - REPEAT_WINDOW
    return next((r for r in sorted(refunds, key=lambda r: r.created_at, reverse=True)
                 if r.created_at >= since and r.state != RefundState.FAILED
                 and (amount is None or Decimal(r.amount) == Decimal(amount))), None)


def repeat_refusal(payment: Payment, amount: str | None,
                   refunds: list[PaymentRefund]) -> str | None:
    """Why a refund identical to one just sent is held back (a Back and resend), or None."""
    earlier = recent_refund(refunds, amount) if amount is not None else None
    if earlier is None:
        return None
    return (f"A refund of {earlier.amount} {payment.currency} was already sent at "
            f"{earlier.created_at.strftime('%H:%M')} UTC, so nothing was sent now. If the "
            "customer is owed a second refund of the same amount, tick \"This is a second "
            "refund of the same amount\" and send again.")


def offered(payment: Payment, refunds: list[PaymentRefund]) -> list[str]:
    """The actions the payment's page offers now."""
    return [action for action in ACTIONS if state_refusal(payment, action, refunds) is None]


def perform(client: PaymentsClient, payment: Payment, action: str, nonce: str,
            amount: str | None, again: bool = False, *, actor: Actor,
            hold_flagged: bool = False) -> Result:
    """Take one confirmed action at most once: check, claim with ``nonce``, send, record (as
    ``actor``'s).

    ``again``: a refund identical to one sent within REPEAT_WINDOW is meant, not a resend.
    ``hold_flagged``: the hold is past the day its expiry is flagged from, so a capture the
    gateway refuses shows the hold as expired.
    """
    detail: dict[str, Any] = {"merchantTxnId": payment.merchant_txn_id, "amount": amount}
    refunds = refunds_of(payment)
    problem = (state_refusal(payment, action, refunds)
               or amount_refusal(payment, action, amount, refunds)
               or (repeat_refusal(payment, amount, refunds)  # a used form is said below
                   if action == REFUND and not again and nonce == payment.action_nonce
                   else None))
    if problem is None and not claim(payment, action, nonce):
        problem = ("This form was already used, so nothing was sent again. The page now shows "
                   "the payment as it stands.")
    if problem is not None:
        record(f"payment.{action}", actor=actor, outcome="refused", merchant_id=payment.merchant_id,
               gid=payment.gid or "", detail={**detail, "reason": problem})
        db.session.commit()
        return Result(False, problem)
    refund = _new_refund(payment, amount) if action == REFUND else None
    sent_amount = {CAPTURE: amount or payment.amount, REFUND: amount}.get(action)
    record_sending(payment, refund.merchant_txn_id if refund else new_merchant_txn_id(),
                   sent_amount)
    try:
        status = _send(client, payment, action, amount, refund)
    except GatewayError as exc:
        return _failed(payment, action, exc, refund, detail, actor, hold_flagged)
    took_effect(payment, status)
    release(payment)
    polling.due_now(payment, clock.utcnow())
    record(f"payment.{action}", actor=actor, merchant_id=payment.merchant_id,
           gid=payment.gid or "", detail={**detail, "status": payment.status})
    db.session.commit()
    return Result(True, sent_message(_NOUNS[action], payment, refunds_of(payment)))


def _new_refund(payment: Payment, amount: str | None) -> PaymentRefund:
    """The refund's row, committed with the payment's ledger entry (``record_sending``)."""
    refund = PaymentRefund(payment_id=payment.id, merchant_txn_id=new_merchant_txn_id(),
                           merchant_unique_id=new_merchant_unique_id(), amount=amount or "0",
                           state=RefundState.SENDING)
    db.session.add(refund)
    return refund


#: The payment's status after a call that was done: a refund answer's word (SUCCESS, INITIATED,
#: ...) is the refund's, never the payment's (docs/gateway-contract.md, "Reading answers").
_LEADS_TO = {CAPTURE: PaymentStatus.SENT_FOR_CAPTURE, REVERSE: PaymentStatus.REVERSED,
             REFUND: PaymentStatus.SENT_FOR_REFUND}


def _send(client: PaymentsClient, payment: Payment, action: str, amount: str | None,
          refund: PaymentRefund | None) -> str:
    """Send the call under its own merchantTxnId; the payment's status once it was done (the
    client raises for an answer that declines it or does not say)."""
    gid = payment.gid or ""
    txn_id = payment.action_txn_id or ""
    if refund is not None:
        answer: ActionResponse | RefundResponse = client.refund(
            gid, txn_id, payment.currency, amount, refund.merchant_unique_id)
    elif action == CAPTURE:
        full = amount is None or Decimal(amount) == payment.authorised
        answer = client.capture(gid, txn_id, None if full else amount)
    else:
        answer = client.reverse(gid, txn_id)
    if answer.original_gid and answer.original_gid not in (payment.gid, payment.transaction_gid):
        raise UnexpectedAnswer(f"{action}: the answer names another payment ({OTHER_PAYMENT})",
                               http_status=200, gid=answer.gid)
    if refund is not None:
        _keep_refund_ids(refund, answer, payment)
    else:
        keep_answer_gid(payment, answer.gid)
    payment.reason_code = (answer.reasonCode or "")[:32]
    payment.message = (answer.message or getattr(answer.data, "detailedMessage", None)
                       or "")[:300]  # what the gateway said of this call, not of an earlier one
    if refund is None:
        payment.gateway_status = (answer.status or getattr(answer.data, "status", None)
                                  or _LEADS_TO[action])[:64]
    return _LEADS_TO[action]


def _keep_refund_ids(refund: PaymentRefund, answer: RefundResponse, payment: Payment) -> None:
    """The refund's own ids: the docs' ``refundId``, and a gid other than the payment's."""
    data = answer.data
    own_gid = next((g for g in ((data.gid if data else None), answer.gid)
                    if g and g not in (payment.gid, payment.transaction_gid)), None)
    refund.gid = own_gid[:64] if own_gid else None
    refund_id = data.refundId if data else None
    refund.refund_id = refund_id[:64] if refund_id else None


def _failed(payment: Payment, action: str, exc: GatewayError, refund: PaymentRefund | None,
            detail: dict[str, Any], actor: Actor, hold_flagged: bool) -> Result:
    """Record a failed call; a lost answer blocks further calls until the status is read; a
    capture refused once the hold's expiry is flagged shows the hold as expired."""
    noun = _NOUNS[action]
    if exc.outcome_unknown:
        mark_unknown(payment)
        polling.due_now(payment, clock.utcnow())
        outcome = OUTCOME_UNKNOWN
        message = (f"{unknown_reason(exc)}, so we cannot tell whether the {noun} happened. "
                   f"Nothing more is sent for this payment until its status is read: the "
                   f"portal reads it within a minute, or use Refresh status now.")
    else:
        never_happened(payment)
        release(payment)
        outcome = "refused"
        message = failure_message(exc, noun)
        if action == CAPTURE and hold_flagged and isinstance(exc, REFUSALS):
            payment.status = PaymentStatus.EXPIRED
            polling.due_now(payment, clock.utcnow())
            message += (" The hold was close to the end of its authorisation, so it most likely "
                        "expired: it now shows as expired.")
    if refund is not None:
        refund.state = RefundState.UNKNOWN if outcome == OUTCOME_UNKNOWN else RefundState.FAILED
    record(f"payment.{action}", actor=actor, outcome=outcome, merchant_id=payment.merchant_id,
           gid=payment.gid or "", detail={**detail, "error": str(exc)})
    db.session.commit()
    return Result(False, message, outcome_unknown=outcome == OUTCOME_UNKNOWN)
