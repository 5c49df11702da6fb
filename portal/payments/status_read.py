"""The gateway's status of a payment: reading it, applying it, and settling a call whose answer
was lost by a status read of that call's own merchantTxnId.
"""

from __future__ import annotations

from portal import clock
from portal.audit import record
from portal.db import db
from portal.gateway.errors import GatewayError, NotFound, Unauthorized
from portal.gateway.payments_client import PaymentsClient
from portal.gateway.payments_shapes import PaymentStatusData, StatusResponse
from portal.models.payment import Payment
from portal.payments.in_flight import needs_reconciling, never_happened, release, took_effect
from portal.payments.service import CAPTURE, REFUND, REVERSE, Result


def apply_status(payment: Payment, data: PaymentStatusData) -> None:
    """Take the gateway's view of the payment's status (amounts come from our own ledger)."""
    payment.status = data.status
    payment.reason_code = (data.reasonCode or "")[:32]
    payment.message = (data.detailedMessage or "")[:300]
    payment.updated_at = clock.utcnow()


def _read_status(client: PaymentsClient, payment: Payment) -> StatusResponse:
    """The status from the pre-authenticated statusUrl; the signed call if that is refused."""
    if payment.status_url:
        try:
            return client.status_by_url(payment.status_url)
        except (Unauthorized, ValueError):  # its token expired, or it names another gateway
            pass
    return client.status(payment.gid or "")


def _reached_gateway(client: PaymentsClient, payment: Payment) -> bool:
    """Whether the gateway has the call in flight: a status read of its own merchantTxnId.

    404 means the gateway never got it; any other failure propagates (we still cannot tell).
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


def refresh(client: PaymentsClient, payment: Payment, actor_label: str | None = None) -> Result:
    """Read the gateway's status, apply it, and settle a call whose answer was lost."""
    if payment.gid is None:
        return Result(False, "The gateway has not confirmed this hold yet, so there is no status "
                             "to read; send the hold again from its form.")
    try:
        answer = _read_status(client, payment)
        settled = _settle(client, payment)
    except GatewayError as exc:
        record("payment.refresh", outcome="failed", merchant_id=payment.merchant_id,
               gid=payment.gid, detail={"error": str(exc)}, actor_label=actor_label)
        db.session.commit()
        return Result(False, "The gateway's status could not be read; nothing was changed. "
                             "Try again in a moment.")
    apply_status(payment, answer.data)
    detail = {"status": payment.status, **({"settled": settled} if settled else {})}
    record("payment.refresh", merchant_id=payment.merchant_id, gid=payment.gid, detail=detail,
           actor_label=actor_label)
    db.session.commit()
    return Result(True, f"The gateway says the payment is {payment.status}.")
