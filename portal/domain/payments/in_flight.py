"""One gateway call at a time per payment: the claim, the ledger of the call in flight, and
what its outcome changes (took effect, never happened, answer lost).

Functions take plain arguments; ``claim`` and ``record_sending`` commit, the others leave the
commit to their caller's unit of work.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import update

from portal.core import clock
from portal.core.db import db
from portal.core.models.payment import ActionState, Payment, RefundState
from portal.domain.partner_events import payment_events
from portal.domain.partner_events.catalogue import EventType
from portal.domain.payments.service import CAPTURE, REFUND, REVERSE, new_nonce, refunds_of

#: A call still marked as sending after this long lost its answer (the process died mid-call).
STALE_SENDING = timedelta(minutes=5)


def claim(payment: Payment, action: str, nonce: str | None = None,
          gate: Callable[[], bool] | None = None) -> bool:
    """Mark one gateway call as sending, atomically; False when another claim won.

    With a ``nonce`` (the action forms) the payment must be idle and the nonce the current one,
    which is replaced; without (a resent initiate, keyed by its merchantTxnId) it must not be
    sending already. One conditional UPDATE decides, so two requests can never both send.
    A ``gate`` runs first in the same transaction; when it says no, nothing is claimed.
    """
    db.session.commit()  # the UPDATE starts its own transaction: no stale read to upgrade
    if gate is not None and not gate():
        db.session.rollback()
        return False
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
    """Keep, before it is sent, what the claimed call will send: our own ledger (a capture's
    and a reversal's merchantTxnId stay on their ledger row once it happened)."""
    payment.action_txn_id = merchant_txn_id
    payment.action_amount = amount
    if payment.action_name == CAPTURE:
        payment.capture_txn_id = merchant_txn_id
    elif payment.action_name == REVERSE:
        payment.reversal_txn_id = merchant_txn_id
    db.session.commit()


def keep_answer_gid(payment: Payment, gid: str | None) -> None:
    """Keep the gid of the gateway's answer to the capture or reversal in flight (the gateway's
    support asks for it) when it is its own, not one of the payment's ids."""
    own = gid[:64] if gid and gid not in (payment.gid, payment.transaction_gid) else None
    if payment.action_name == CAPTURE:
        payment.capture_gid = own
    elif payment.action_name == REVERSE:
        payment.reversal_gid = own


#: What partners are told when each call the portal sends took effect.
_ACTION_EVENTS = {CAPTURE: EventType.PAYMENT_CAPTURED, REVERSE: EventType.PAYMENT_RELEASED,
                  REFUND: EventType.PAYMENT_REFUNDED}


def took_effect(payment: Payment, status: str | None) -> None:
    """The call in flight happened at the gateway: enter it in the ledger (its status if told),
    and tell partners' software (its payment event)."""
    if payment.action_name == CAPTURE:
        payment.captured_amount = payment.action_amount
    refunded = None
    for refund in refunds_of(payment):
        if refund.merchant_txn_id == payment.action_txn_id:
            refund.state = RefundState.SENT
            refunded = refund
    if status:
        payment.status = status
    payment.updated_at = clock.utcnow()
    told = _ACTION_EVENTS.get(payment.action_name or "")
    if told is not None:
        payment_events.action_took_effect(payment, told, refunded)


def never_happened(payment: Payment) -> None:
    """The call in flight never reached the gateway (or was refused): a refund's amount is free
    again, and a capture or reversal leaves no ledger row."""
    if payment.capture_txn_id == payment.action_txn_id and payment.captured_amount is None:
        payment.capture_txn_id = None
    if payment.reversal_txn_id == payment.action_txn_id:
        payment.reversal_txn_id = None
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
