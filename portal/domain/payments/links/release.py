"""Releasing the old hold once its new hold is authorised (``holding_again``): the staff's own
release (``actions.perform`` with a reversal), credited to "hold again", with an audit entry
saying why. A hold captured or released meanwhile is left as it is; one with a call in flight
(or whose last call lost its answer) is tried again a little later, until its status is read."""

from __future__ import annotations

from datetime import timedelta

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import ActionState, Payment
from portal.domain.audit.service import Actor, record
from portal.domain.jobs.queue import enqueue
from portal.domain.payments import actions
from portal.domain.payments import credentials as creds
from portal.domain.payments.links.holding_again import RELEASE_KIND
from portal.gateway.payments.words import PaymentStatus

#: Who the audit credits with the release.
RELEASE_ACTOR = Actor("hold again")
RELEASE_ACTION = "payment.hold_again_release"
#: How long a release waits for a call in flight on the old hold, and how many times.
RETRY_AFTER = timedelta(minutes=1)
RETRIES = 30


def release_held_again(settings: Settings, new_payment_id: int, attempt: int = 1) -> bool:
    """Release the hold that ``new_payment_id`` holds again, if it is still held; True when the
    gateway released it. Audited either way (but for a try put off); commits."""
    new = db.session.get(Payment, new_payment_id)
    old = db.session.get(Payment, new.replaces_payment_id) \
        if new is not None and new.replaces_payment_id else None
    if new is None or old is None or new.authorized_at is None:
        return False
    merchant = db.session.get(Merchant, old.merchant_id)
    current = creds.credentials_of(merchant) if merchant is not None else None
    detail = {"merchantTxnId": old.merchant_txn_id, "heldAgainAs": new.merchant_txn_id}
    if current is None or old.status != PaymentStatus.AUTHORIZED:
        why = "no payment credentials" if current is None else f"left as it is ({old.status})"
        record(RELEASE_ACTION, actor=RELEASE_ACTOR, outcome="refused", merchant_id=old.merchant_id,
               gid=old.gid or "", detail={**detail, "reason": why})
        db.session.commit()
        return False
    if old.action_state != ActionState.IDLE and attempt < RETRIES:  # its status is read first
        enqueue(RELEASE_KIND, {"payment_id": new.id, "attempt": attempt + 1},
                run_at=clock.utcnow() + RETRY_AFTER)
        db.session.commit()
        return False
    result = actions.perform(creds.client_for(settings, current), old, actions.REVERSE,
                             old.action_nonce, None, actor=RELEASE_ACTOR)
    why = ("The customer authorised the new hold (heldAgainAs) that holds this one again, so "
           "this one was released.") if result.ok else result.message
    record(RELEASE_ACTION, actor=RELEASE_ACTOR, outcome="ok" if result.ok else "failed",
           merchant_id=old.merchant_id, gid=old.gid or "", detail={**detail, "reason": why})
    db.session.commit()
    return result.ok
