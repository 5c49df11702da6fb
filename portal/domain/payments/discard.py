"""Discarding a hold that never reached the customer: its initiate was refused (or never sent),
so the gateway holds nothing under it and nobody can pay it.

The payment's row goes in one conditional DELETE (no gateway id, idle, the page's nonce), with
its audit entry in the same commit: a process killed before the commit discarded nothing, one
killed after it discarded the hold and said so. A hold whose initiate lost its answer may exist
at the gateway and is never discarded; sending it again settles that first.
"""

from __future__ import annotations

from sqlalchemy import delete

from portal.core.db import db
from portal.core.models.payment import PENDING, ActionState, Payment
from portal.domain.audit.service import Actor, record
from portal.domain.payments.links.standing import live_link
from portal.domain.payments.service import Result
from portal.domain.payments.wording import money

ACTION = "payment.discard"


def discard_refusal(payment: Payment) -> str | None:
    """Why this hold cannot be discarded, or None when it never reached the gateway."""
    if payment.gid is not None or payment.status != PENDING:
        return ("The gateway created this hold, so it cannot be discarded: release it (Reverse "
                "the hold) or let it expire.")
    if payment.action_state == ActionState.UNKNOWN:
        return ("The gateway did not answer the last attempt, so the hold may exist there. Send "
                "it again from its form first (it reuses the same order reference).")
    if payment.action_state == ActionState.SENDING:
        return "This hold is being sent right now; reload the page in a moment."
    if live_link(payment) is not None:
        return ("The customer was emailed a payment link for this hold: cancel the link first, "
                "so they cannot open it.")
    return None


def discard(payment: Payment, nonce: str, actor: Actor) -> Result:
    """Delete a hold that never reached the gateway, once, with its audit entry; commits."""
    problem = discard_refusal(payment)
    if problem is not None:
        return Result(False, problem)
    merchant_id, reference = payment.merchant_id, payment.merchant_txn_id
    amount = money(payment.amount, payment.currency)
    detail = {"merchantTxnId": reference, "amount": payment.amount, "currency": payment.currency}
    db.session.commit()  # the DELETE starts its own transaction
    gone = db.session.execute(
        delete(Payment).where(Payment.id == payment.id, Payment.gid.is_(None),
                              Payment.status == PENDING,
                              Payment.action_state == ActionState.IDLE,
                              Payment.action_nonce == nonce)
        .execution_options(synchronize_session=False))
    if gone.rowcount != 1:
        db.session.rollback()
        return Result(False, "This hold changed since the page was shown, so nothing was "
                             "discarded; look at it again.")
    record(ACTION, actor=actor, merchant_id=merchant_id, detail=detail)
    db.session.commit()
    db.session.expunge(payment)
    return Result(True, f"The hold for order {reference} ({amount}) was discarded; it never "
                        "reached the gateway, so nothing was charged or held.")
