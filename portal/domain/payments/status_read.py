"""The gateway's status of a payment: reading it, applying it (``status_apply``), and settling a
call whose answer was lost by a status read of that call's own id.

Reads name the payment by the initiate's id (its order id); a hold whose initiate answer was
lost is read by its merchantUniqueId, the gateway's idempotency key. The pre-authenticated
statusUrl is used only right after a callback (its token may expire); otherwise the call is
signed (docs/gateway-contract.md, revision 4).
"""

from __future__ import annotations

from datetime import datetime

from portal.core import clock
from portal.core.db import db
from portal.core.models.payment import Payment
from portal.domain.audit.service import Actor, record
from portal.domain.payments import polling
from portal.domain.payments.in_flight import needs_reconciling, never_happened, release, took_effect
from portal.domain.payments.service import CAPTURE, REFUND, REVERSE, Result, refunds_of
from portal.domain.payments.status_apply import apply_status, names_this_payment
from portal.domain.payments.wording import status_words
from portal.gateway.errors import (
    TOO_MANY_REQUESTS,
    GatewayError,
    GatewayUnavailable,
    NotFound,
    Unauthorized,
)
from portal.gateway.payments.answers import StatusResponse
from portal.gateway.payments.client import PaymentsClient
from portal.gateway.payments.words import known

INITIATE = "initiate"
OTHER_PAYMENT = "the gateway's answer names another payment"


def _read_status(client: PaymentsClient, payment: Payment, after_callback: bool
                 ) -> StatusResponse:
    """The status by the signed call; right after a callback, from the pre-authenticated
    statusUrl first (the signed call when that is refused: its token may have expired)."""
    if after_callback and payment.status_url:
        try:
            return client.status_by_url(payment.status_url)
        except (Unauthorized, ValueError):  # its token expired, or it names another gateway
            pass
    return client.status(payment.gid or payment.merchant_unique_id)


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


def settle_initiate(client: PaymentsClient, payment: Payment) -> StatusResponse | None:
    """A hold whose initiate answer was lost (or was called a duplicate), read by its
    merchantUniqueId: the gateway's answer (it has the hold: its order id is taken), or None
    when the gateway never got it (the hold may be sent again with the same ids)."""
    try:
        answer = client.status(payment.merchant_unique_id)
    except NotFound:
        answer = None
    if answer is not None and not names_this_payment(payment, answer):
        raise GatewayError(f"status: {OTHER_PAYMENT}")
    if answer is not None:
        payment.gid = answer.payment_gid or payment.gid
    release(payment)
    return answer


def refresh(client: PaymentsClient, payment: Payment, actor: Actor,
            rules: polling.PollRules = polling.DEFAULT_RULES, *,
            after_callback: bool = False) -> Result:
    """Read the gateway's status, apply it, settle a call whose answer was lost, and schedule
    the next poll; audited as ``actor``'s."""
    lost_initiate = payment.gid is None and needs_reconciling(payment) \
        and payment.action_name == INITIATE
    if payment.gid is None and not lost_initiate:
        return Result(False, "The gateway has not confirmed this hold yet, so there is no status "
                             "to read; send the hold again from its form.")
    now = clock.utcnow()
    try:
        if lost_initiate:
            answer = settle_initiate(client, payment)
            settled: str | None = INITIATE
        else:
            answer = _read_status(client, payment, after_callback)
            if not names_this_payment(payment, answer):
                raise GatewayError(f"status: {OTHER_PAYMENT}")
            settled = _settle(client, payment)
    except GatewayError as exc:
        return _read_failed(payment, exc, actor, now, rules)
    return take_read(payment, answer, settled, actor, rules)


def take_read(payment: Payment, answer: StatusResponse | None, settled: str | None,
              actor: Actor, rules: polling.PollRules = polling.DEFAULT_RULES) -> Result:
    """Apply a status read made for ``payment`` (None: the gateway never got its initiate),
    schedule the next one, audit it as ``actor``'s; commits. ``settled``: the lost call it
    settled, if any."""
    now = clock.utcnow()
    moved = apply_status(payment, answer, actor) if answer is not None else False
    polling.after_read(payment, moved or settled is not None, now, rules)
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


def _read_failed(payment: Payment, exc: GatewayError, actor: Actor, now: datetime,
                 rules: polling.PollRules) -> Result:
    """A read that failed changes nothing; a rate-limit answer backs the next read off."""
    record("payment.refresh", outcome="failed", merchant_id=payment.merchant_id,
           gid=payment.gid or "", detail={"error": str(exc)}, actor=actor)
    if isinstance(exc, GatewayUnavailable) and exc.http_status == TOO_MANY_REQUESTS:
        polling.after_rate_limit(payment, now, exc.retry_after)
        db.session.commit()
        return Result(False, "The gateway is busy and asked us to slow down, so the status "
                             "was not read; the portal reads it again shortly.")
    polling.after_read(payment, False, now, rules)
    db.session.commit()
    return Result(False, "The gateway's status could not be read; nothing was changed. "
                         "Try again in a moment.")
