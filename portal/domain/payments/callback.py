"""The gateway's posts to ``merchantCallbackURL``: the customer's browser coming back from the
hosted page, and the gateway's own posts of terminal transitions, repeated at times
(docs/gateway-contract.md, revision 4, "Callbacks come more than once, and not only from a
browser").

A verified token is only a reason to read the status: the payment it names is found by the
initiate's id, then by merchantUniqueId, then by merchantTxnId (a transaction id matches only a
payment already storing it), and its outcome comes from a status read made with short timeouts
and no retry, so the answer goes within 5 seconds. Repeats, also at once, apply one move: every
change is a conditional UPDATE.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from flask_babel import lazy_gettext as _l
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from portal.core.clients import GatewayKeyMissing, gateway_public_key
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment, PaymentCredentials
from portal.domain.audit.service import Actor
from portal.domain.payments import credentials as creds
from portal.domain.payments import polling
from portal.domain.payments.in_flight import needs_reconciling, release
from portal.domain.payments.status_read import INITIATE, refresh, take_read
from portal.gateway.errors import GatewayError
from portal.gateway.payments.answers import CallbackClaims
from portal.gateway.payments.client import PaymentsClient, verify_callback_token
from portal.gateway.payments.jws import TokenError

log = logging.getLogger("portal.payments")

#: The form field the hosted page posts the gateway-signed token in (docs/gateway-facts.md B9).
TOKEN_FIELD = "x-gl-token"  # noqa: S105  # nosec B105  # a form field name, not a secret
CALLBACK_ACTOR = "customer callback"
CALLBACK = Actor(CALLBACK_ACTOR)
#: What the customer reads when their return cannot be taken (in the page's language).
UNCONFIRMABLE = _l("We cannot confirm payments right now; the merchant will contact you.")
INCOMPLETE = _l("The payment response is incomplete.")
UNVERIFIED = _l("The payment response could not be verified.")
UNKNOWN = _l("We do not know this payment.")


class CallbackError(Exception):
    """A callback that cannot be taken: the HTTP status to answer and what to tell the customer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class CallbackOutcome:
    """The payment the callback was for; ``confirmed`` when the status call agreed."""

    payment: Payment
    confirmed: bool


def _gateway_key(settings: Settings) -> str:
    try:
        return gateway_public_key(settings)
    except GatewayKeyMissing:
        log.error("GATEWAY_PUBLIC_KEY_FILE is not set or not readable: callbacks are refused")
        raise CallbackError(503, UNCONFIRMABLE) from None


def _one(*conditions: object) -> Payment | None:
    return db.session.scalar(select(Payment).where(*conditions))


def named_payment(claims: CallbackClaims) -> Payment | None:
    """The payment a verified token names: by the initiate's id (``gid``, ``x-gl-orderId``),
    else its merchantUniqueId, else its merchantTxnId; a transaction id (``x-gl-gid``) only
    for a payment already storing it. A payment found by our own ids whose initiate answer
    was lost takes the token's (gateway-signed) order id; one that names another order id is
    not this token's."""
    for order_id in claims.order_ids:
        payment = _one(Payment.gid == order_id)
        if payment is not None:
            return payment
    if claims.gidHeader:
        payment = _one(Payment.transaction_gid == claims.gidHeader)
        if payment is not None:
            return payment
    payment = None
    if claims.merchantUniqueId:
        payment = _one(Payment.merchant_unique_id == claims.merchantUniqueId)
    if payment is None and claims.merchantTxnId:
        payment = _one(Payment.merchant_txn_id == claims.merchantTxnId)
    if payment is None:
        return None
    if payment.gid is not None and claims.order_ids and payment.gid not in claims.order_ids:
        return None
    if payment.gid is None and claims.order_ids:
        payment.gid = claims.order_ids[0]
    return payment


def _keep_transaction_id(payment: Payment, claims: CallbackClaims) -> None:
    """Keep the transaction id a gateway-signed token shows for this payment (once)."""
    found = claims.transaction_id
    if not found or payment.transaction_gid or found == payment.gid:
        return
    payment.transaction_gid = found[:64]
    try:
        db.session.commit()
    except IntegrityError:  # another payment holds it already: it names no payment of ours
        db.session.rollback()
        log.warning("payment callback: a transaction id already stored for another payment")


def take_callback(settings: Settings, token: str | None, now_ms: int,
                  actor: Actor) -> CallbackOutcome:
    """Verify the posted ``x-gl-token``, then confirm the outcome with a status call (as
    ``actor``: the customer, :data:`CALLBACK`)."""
    if not token:
        raise CallbackError(400, INCOMPLETE)
    try:
        claims = verify_callback_token(token, _gateway_key(settings), now_ms)
    except TokenError as exc:
        log.warning("payment callback refused: %s", exc)
        raise CallbackError(400, UNVERIFIED) from None
    payment = named_payment(claims)
    if payment is None:
        return _read_by_order_id(settings, claims, actor)
    _keep_transaction_id(payment, claims)
    merchant = db.session.get(Merchant, payment.merchant_id)
    credentials = creds.credentials_of(merchant) if merchant else None
    result = refresh(_quick_client(settings, credentials), payment, actor,
                     polling.rules_of(settings), after_callback=True)
    return CallbackOutcome(payment, result.ok)


def _quick_client(settings: Settings, credentials: PaymentCredentials | None) -> PaymentsClient:
    """The merchant's client that answers within a few seconds; 503 without one."""
    if credentials is None:
        raise CallbackError(503, UNCONFIRMABLE)
    try:
        return creds.client_for(settings, credentials, quick=True)
    except creds.CredentialsError as exc:
        log.error("payment callback cannot be confirmed: %s", exc)
        raise CallbackError(503, UNCONFIRMABLE) from None


def _read_by_order_id(settings: Settings, claims: CallbackClaims, actor: Actor
                      ) -> CallbackOutcome:
    """A token naming an order id the portal has not stored (its initiate answer was lost) and
    none of our ids (the pre-signed shape): the status read by that order id, signed as the
    token's merchant, says which of our payments it is (its merchantUniqueId or
    merchantTxnId)."""
    credentials = (db.session.scalar(select(PaymentCredentials).where(
        PaymentCredentials.mid == claims.merchantId)) if claims.merchantId else None)
    if not claims.order_ids or credentials is None:
        log.warning("payment callback for a payment the portal does not know")
        raise CallbackError(404, UNKNOWN)
    client = _quick_client(settings, credentials)
    try:
        answer = client.status(claims.order_ids[0])
    except GatewayError as exc:
        log.warning("payment callback: its order id could not be read: %s", exc)
        raise CallbackError(503, UNCONFIRMABLE) from None
    ours = CallbackClaims(iat=0, merchantUniqueId=answer.data.merchantUniqueId,
                          merchantTxnId=answer.data.merchantTxnId, gid=answer.payment_gid or None)
    payment = named_payment(ours) if ours.names_a_payment() else None
    if payment is None or payment.merchant_id != credentials.merchant_id:
        log.warning("payment callback for a payment the portal does not know")
        raise CallbackError(404, UNKNOWN)
    settled = None
    if needs_reconciling(payment) and payment.action_name == INITIATE:  # it reached the gateway
        release(payment)
        settled = INITIATE
    _keep_transaction_id(payment, claims)
    result = take_read(payment, answer, settled, actor, polling.rules_of(settings))
    return CallbackOutcome(payment, result.ok)
