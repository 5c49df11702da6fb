"""Holding again: an authorised hold close to its expiry gets a new payment link for the same
amount to the same customer (``renewal.send_new_link``, as an unpaid payment's new link does).
The customer paying it is their consent; once the new hold is authorised the old one is released
by a worker job, by the staff's own release (``release.release_held_again``).

One new hold per old hold: ``payments.replaces_payment_id`` is unique, so two presses at once,
or a second press while the first new link is open, never make a second live hold.
"""

from __future__ import annotations

from datetime import datetime

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.payment import ActionState, Payment
from portal.domain.jobs.queue import enqueue
from portal.domain.payments.expiry import expiry_of
from portal.gateway.payments.words import PaymentStatus

ACTION = "payment.hold_again"
#: The worker job that releases the old hold once its new one is authorised.
RELEASE_KIND = "hold_again_release"


def is_held(payment: Payment) -> bool:
    """Whether ``payment`` is an authorised hold (the case "Hold again" serves), not an unpaid
    payment (the case "Send a new link" serves)."""
    return payment.authorized_at is not None and payment.captured_amount is None


def hold_again_refusal(payment: Payment, replaced_by: Payment | None, settings: Settings,
                       now: datetime) -> str | None:
    """Why ``payment`` cannot be held again now, in words for the staff, or None."""
    if replaced_by is not None:
        return (f"This hold was held again already as order {replaced_by.merchant_txn_id}: "
                "one new link per hold, so the customer is never held twice.")
    ends = expiry_of(payment, settings, now)
    if ends is None:
        return "Only an authorised hold, not captured or released, can be held again."
    if not ends.soon:
        return "This hold is not close to its expiry yet, so it needs no new authorisation."
    if payment.action_state != ActionState.IDLE:
        return "An action is in flight for this hold; wait for its outcome first."
    if payment.customer_email is None:
        return "This hold has no customer email to send a new link to."
    return None


def release_when_authorised(payment: Payment) -> None:
    """Queue the release of the hold ``payment`` holds again, now that it is authorised; in the
    caller's transaction (no commit). A new link for an unpaid payment releases nothing."""
    old = db.session.get(Payment, payment.replaces_payment_id) \
        if payment.replaces_payment_id is not None else None
    if old is not None and old.status == PaymentStatus.AUTHORIZED:
        enqueue(RELEASE_KIND, {"payment_id": payment.id})
