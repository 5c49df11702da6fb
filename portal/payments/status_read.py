"""The gateway's status of a payment: reading it, applying it (forward only), and settling a
call whose answer was lost by a status read of that call's own merchantTxnId.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import update
from sqlalchemy.orm.attributes import set_committed_value

from portal.audit.service import Actor, record
from portal.core import clock
from portal.core.db import db
from portal.core.models.payment import Payment
from portal.gateway.errors import GatewayError, NotFound, Unauthorized
from portal.gateway.payments_client import PaymentsClient
from portal.gateway.payments_shapes import StatusResponse
from portal.gateway.payments_words import PaymentStatus, known
from portal.payments import polling
from portal.payments.in_flight import needs_reconciling, never_happened, release, took_effect
from portal.payments.service import CAPTURE, REFUND, REVERSE, Result, refunds_of
from portal.payments.status_moves import may_move
from portal.payments.wording import status_words

INITIATE = "initiate"


def apply_status(payment: Payment, answer: StatusResponse) -> bool:
    """Take the gateway's view of the payment: its word is kept as said, and the status moves
    only forward, in one conditional UPDATE (a read older than another change moves nothing).
    Amounts come from our own ledger. True when the status moved; no commit."""
    data = answer.data
    word = data.status.strip()
    payment.gateway_status = word[:64]
    payment.reason_code = (data.reasonCode or answer.reasonCode or "")[:32]
    payment.message = (data.detailedMessage or "")[:300]
    payment.updated_at = clock.utcnow()
    return may_move(payment.status, word) and _move(payment, word)


def _move(payment: Payment, new: str) -> bool:
    """Move the status from what this payment was read at to ``new``, unless another change
    came first; True when moved."""
    moved = db.session.execute(
        update(Payment).where(Payment.id == payment.id, Payment.status == payment.status)
        .values(status=new).execution_options(synchronize_session=False)).rowcount == 1
    if moved:
        set_committed_value(payment, "status", new)
        if new == PaymentStatus.AUTHORIZED:
            payment.authorized_at = payment.authorized_at or clock.utcnow()
    return moved


def _read_status(client: PaymentsClient, payment: Payment) -> StatusResponse:
    """The status from the pre-authenticated statusUrl; the signed call if that is refused;
    by the payment's merchantTxnId while its gid is not known (a lost initiate answer)."""
    if payment.status_url:
        try:
            return client.status_by_url(payment.status_url)
        except (Unauthorized, ValueError):  # its token expired, or it names another gateway
            pass
    return client.status(payment.gid or payment.merchant_txn_id)


def _reached_gateway(client: PaymentsClient, payment: Payment) -> bool:
    """Whether the gateway has the call in flight: a status read of its own merchantTxnId.

    "Not found" (in any of the gateway's dialects) means the gateway never got it; any other
    failure propagates (we still cannot tell).
    """
    if payment.action_name not in (CAPTURE, REVERSE, REFUND) or not payment.action_txn_id:
        return False  # nothing was sent under an id of its own
    try:
        client.status(payment.action_txn_id)
    except NotFound:
        return False
    return True


def _settle(client: PaymentsClient, payment: Payment) -> str | None:
    """Settle a call whose answer was lost; the name of the call settled, if any."""
    if not needs_reconciling(payment):
        return None
    settled = payment.action_name
    if _reached_gateway(client, payment):
        took_effect(payment, None)
    else:
        never_happened(payment)
    release(payment)
    return settled


def _settle_initiate(client: PaymentsClient, payment: Payment) -> StatusResponse | None:
    """A hold whose initiate answer was lost, read by its merchantTxnId: the gateway's answer
    (it has the hold: its gid is taken), or None when the gateway never got it (the hold may
    be sent again)."""
    try:
        answer = _read_status(client, payment)
    except NotFound:
        answer = None
    if answer is not None:
        payment.gid = answer.payment_gid or None
    release(payment)
    return answer


def refresh(client: PaymentsClient, payment: Payment, actor: Actor,
            poll_period: timedelta = polling.DEFAULT_PERIOD) -> Result:
    """Read the gateway's status, apply it, settle a call whose answer was lost, and schedule
    the next poll; audited as ``actor``'s."""
    lost_initiate = payment.gid is None and needs_reconciling(payment) \
        and payment.action_name == INITIATE
    if payment.gid is None and not lost_initiate:
        return Result(False, "The gateway has not confirmed this hold yet, so there is no status "
                             "to read; send the hold again from its form.")
    try:
        if lost_initiate:
            answer = _settle_initiate(client, payment)
            settled = INITIATE
        else:
            answer = _read_status(client, payment)
            settled = _settle(client, payment)
    except GatewayError as exc:
        record("payment.refresh", outcome="failed", merchant_id=payment.merchant_id,
               gid=payment.gid or "", detail={"error": str(exc)}, actor=actor)
        polling.after_read(payment, False, clock.utcnow(), poll_period)
        db.session.commit()
        return Result(False, "The gateway's status could not be read; nothing was changed. "
                             "Try again in a moment.")
    moved = apply_status(payment, answer) if answer is not None else False
    polling.after_read(payment, moved or settled is not None, clock.utcnow(), poll_period)
    detail = {"status": payment.gateway_status or payment.status,
              **({"settled": settled} if settled else {})}
    record("payment.refresh", merchant_id=payment.merchant_id, gid=payment.gid or "",
           detail=detail, actor=actor)
    db.session.commit()
    if answer is None:
        return Result(True, "The gateway never received this hold, so it can be sent again.")
    words = status_words(payment, refunds_of(payment))
    if not known(payment.gateway_status or payment.status):
        return Result(True, f"The gateway reported “{payment.gateway_status}”, a status the "
                            f"portal does not know; the payment stays {words[:1].lower()}"
                            f"{words[1:]}.")
    return Result(True, f"The gateway's status was read: the payment is {words[:1].lower()}"
                        f"{words[1:]}.")
