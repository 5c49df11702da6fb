"""What a status answer changes on a payment: the gateway's word kept as said, the status moved
forward only (in one conditional UPDATE), a partial approval flagged, a conditional decline
timed, a late authorisation told to the merchant's owner, the hold a new one holds again
queued for release (docs/gateway-contract.md, revision 4, "Status answers", "Late outcomes"
and "Reason codes never decide money").

No commit here: the caller's unit of work holds the read, its audit entry and its notice.
"""

from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.orm.attributes import set_committed_value

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.notice import Notice, NoticeKind
from portal.core.models.payment import Payment
from portal.domain.audit.service import Actor, record
from portal.domain.partner_events import payment_events
from portal.domain.payments.links.holding_again import release_when_authorised
from portal.domain.payments.status_moves import may_move
from portal.gateway.payments.answers import StatusResponse
from portal.gateway.payments.words import PaymentStatus, is_partial_approval

LATE_ACTION = "payment.late_authorisation"


def names_this_payment(payment: Payment, answer: StatusResponse) -> bool:
    """Whether the answer is about ``payment``: an order id or merchantUniqueId it names must be
    the payment's (an envelope gid names the answer, never the payment)."""
    data = answer.data
    if data.gid and payment.gid and data.gid not in (payment.gid, payment.transaction_gid):
        return False
    return not (data.merchantUniqueId and data.merchantUniqueId != payment.merchant_unique_id)


def apply_status(payment: Payment, answer: StatusResponse, actor: Actor) -> bool:
    """Take the gateway's view of the payment: its word is kept as said, and the status moves
    only forward. Amounts come from our own ledger, but for what an authorisation's read
    confirms. True when the status moved; no commit."""
    data = answer.data
    word = answer.payment_status or ""
    payment.gateway_status = word[:64]
    payment.reason_code = (data.reasonCode or answer.reasonCode or "")[:32]
    payment.message = (data.detailedMessage or "")[:300]
    payment.updated_at = clock.utcnow()
    if word == PaymentStatus.AUTHORIZED:
        payment.confirmed_amount = (data.amount or "")[:24] or None
        if is_partial_approval(payment.reason_code, payment.message or answer.message or ""):
            payment.partial_approval = True
    before = payment.status
    moved = may_move(before, word, reversal_sent=payment.reversal_txn_id is not None) \
        and _move(payment, word)
    if moved and word == PaymentStatus.CONDITIONAL_DECLINE:
        payment.soft_declined_at = payment.soft_declined_at or clock.utcnow()
    if moved and before == PaymentStatus.CONDITIONAL_DECLINE and word == PaymentStatus.AUTHORIZED:
        _tell_late_authorisation(payment, actor)
    if moved and word == PaymentStatus.AUTHORIZED:
        release_when_authorised(payment)
    return moved


def _move(payment: Payment, new: str) -> bool:
    """Move the status from what this payment was read at to ``new``, unless another change
    came first; True when moved. A move partners are told of writes its event."""
    moved = db.session.execute(
        update(Payment).where(Payment.id == payment.id, Payment.status == payment.status)
        .values(status=new).execution_options(synchronize_session=False)).rowcount == 1
    if moved:
        set_committed_value(payment, "status", new)
        if new == PaymentStatus.AUTHORIZED:
            payment.authorized_at = payment.authorized_at or clock.utcnow()
        payment_events.status_moved(payment, new)
    return moved


def _tell_late_authorisation(payment: Payment, actor: Actor) -> None:
    """A payment declined for now is held after all: flagged on its pages and the worklist until
    captured or released, its owner told, audited."""
    payment.late_authorised_at = clock.utcnow()
    merchant = db.session.get(Merchant, payment.merchant_id)
    if merchant is not None:
        db.session.add_all(Notice.for_owner_of(merchant, NoticeKind.LATE_HOLD,
                                               payment_id=payment.id))
    record(LATE_ACTION, actor=actor, merchant_id=payment.merchant_id, gid=payment.gid or "",
           detail={"merchantTxnId": payment.merchant_txn_id, "amount": payment.amount,
                   "currency": payment.currency})
