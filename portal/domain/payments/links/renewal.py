"""A new payment link for a payment that ended unpaid (declined, failed, abandoned), or for an
authorised hold close to its expiry (``holding_again``): a new hold for the same customer and
amount, emailed as a link, the old payment kept as it stands and the two linked
(``Payment.replaces_payment_id``, one new hold per payment).

The new hold's ids are derived from the old one's, so two presses at once (or a Back and press
again) store one hold with one link: the second finds it by its order reference
(``holds.stored_hold``) and is told it was emailed already.
"""

from __future__ import annotations

import hashlib

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.core.payment_statuses import AUTHORISED, POLLED
from portal.domain.audit.service import Actor, record
from portal.domain.payments.links import customer_language, holding_again
from portal.domain.payments.links.sending import Sent, hold_by_link

ACTION = "payment_link.renew"


def _derived(prefix: str, seed: str, length: int) -> str:
    return prefix + hashlib.sha256(seed.encode()).hexdigest()[:length - len(prefix)]


def renewal_ids(payment: Payment) -> tuple[str, str]:
    """The new hold's merchantTxnId and merchantUniqueId, the same for every press."""
    return (_derived("NL", f"renewal:{payment.merchant_txn_id}", 24),
            _derived("NU", f"renewal:{payment.merchant_unique_id}", 32))


def renewal_refusal(payment: Payment) -> str | None:
    """Why no new link can be sent for ``payment``, in words for the staff, or None."""
    if payment.gid is None:
        return "This payment never reached the gateway; send it from its own link or form."
    if payment.status in AUTHORISED or payment.authorized_at is not None:
        return "This payment was authorised, so the customer needs no new link."
    if payment.status in POLLED:
        return "This payment is still under way at the gateway; wait for its outcome first."
    if payment.customer_email is None:
        return "This payment has no customer email to send a new link to."
    return None


def replacement_of(payment: Payment) -> Payment | None:
    """The payment sent as the new link for ``payment``, if one was."""
    return db.session.scalar(select(Payment).where(Payment.replaces_payment_id == payment.id))


def new_link_refusal(settings: Settings, payment: Payment) -> str | None:
    """Why ``payment`` gets no new link now: an authorised hold is held again, an unpaid
    payment renewed; in words for the staff, or None."""
    if holding_again.is_held(payment):
        return holding_again.hold_again_refusal(payment, replacement_of(payment), settings,
                                                clock.utcnow())
    return renewal_refusal(payment)


def send_new_link(settings: Settings, payment: Payment, merchant: Merchant,
                  actor: Actor) -> Sent:
    """Email the customer of ``payment`` (unpaid, or a hold close to expiry) a new link for the
    same amount, in the language they picked on its link if they did; the old payment stays as
    it stands; audited. Commits."""
    refused = new_link_refusal(settings, payment)
    if refused:
        return Sent(False, refused, payment.id)
    txn_id, unique_id = renewal_ids(payment)
    body = {**payment.request_payload, "merchantTxnId": txn_id, "merchantUniqueId": unique_id}
    sent = hold_by_link(settings, merchant, body, actor, customer_language.picked(payment))
    if sent.payment_id is None or sent.payment_id == payment.id:
        return Sent(False, sent.message or "The new link could not be sent.", payment.id)
    try:
        moved = db.session.execute(
            update(Payment).where(Payment.id == sent.payment_id,
                                  Payment.replaces_payment_id.is_(None))
            .values(replaces_payment_id=payment.id)
            .execution_options(synchronize_session=False)).rowcount == 1
    except IntegrityError:  # another new hold replaces this payment already: one per payment
        db.session.rollback()
        return Sent(False, new_link_refusal(settings, payment) or "A new link was sent already.",
                    payment.id)
    if moved:
        record(holding_again.ACTION if holding_again.is_held(payment) else ACTION,
               merchant_id=merchant.id, actor=actor,
               detail={"merchantTxnId": payment.merchant_txn_id, "newMerchantTxnId": txn_id})
    db.session.commit()
    return sent
