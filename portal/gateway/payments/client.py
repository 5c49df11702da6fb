"""PaymentsClient: hosted-checkout authorize-only payments (spec 000, as
docs/gateway-contract.md reads it).

Every call is signed with a JWS over the exact bytes sent. The body goes as a compact JWE to
the gateway's key, as every official SDK sends it, or as plain JSON (a sandbox setting). POSTs
are never retried. Every answer is read by :mod:`portal.gateway.payments.reading`: a 2xx that
declines raises :class:`~portal.gateway.errors.Declined`, and one that does not say whether the
action was done (or cannot be read) raises an error with ``outcome_unknown``, so the caller
reconciles with a status read of that call's own merchantTxnId instead of sending it twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

import requests
from joserfc.jwk import RSAKey

from portal.gateway.errors import MayAlreadyExist, ValidationFailed
from portal.gateway.payments.answers import (
    ActionResponse,
    CallbackClaims,
    InitiateResponse,
    RefundResponse,
    StatusResponse,
)
from portal.gateway.payments.auth import JwsAuth
from portal.gateway.payments.jwe import encrypt_body
from portal.gateway.payments.jws import (
    TOKEN_LIFETIME_MS,
    TokenError,
    check_age,
    load_private_key,
    load_public_key,
    verify_claims,
)
from portal.gateway.payments.operations import INITIATE_PATH, OPERATIONS
from portal.gateway.payments.reading import (
    action_reader,
    issued_at_ms,
    names_a_duplicate,
    read_callback_claims,
    read_status,
)
from portal.gateway.payments.requests import InitiateRequest
from portal.gateway.payments.vocabulary import AmountScope
from portal.gateway.retry import RetryPolicy
from portal.gateway.shapes import Envelope, dump, validate_payload
from portal.gateway.transport import Timeouts, Transport, json_bytes

Answer = TypeVar("Answer", bound=Envelope)


def epoch_ms() -> int:
    """The wall clock as epoch milliseconds."""
    return int(time.time() * 1000)


class PaymentsClient:
    """One merchant's payments API: initiate, status, capture, reversal and refund."""

    def __init__(
        self,
        base_url: str,
        *,
        merchant_id: str,
        kid: str,
        private_key_pem: str | bytes,
        gateway_public_key_pem: str | bytes | None = None,
        gateway_kid: str | None = None,
        encrypt: bool = False,
        parent_mid: str | None = None,
        initiate_path: str = INITIATE_PATH,
        timeouts: Timeouts = Timeouts(),
        retry: RetryPolicy = RetryPolicy(),
        session: requests.Session | None = None,
        sleep: Callable[[float], None] | None = None,
        now_ms: Callable[[], int] = epoch_ms,
    ) -> None:
        if encrypt and not (gateway_public_key_pem and gateway_kid):
            raise ValueError("JWE mode needs the gateway's public key and its kid")
        #: Who signs: the parent MID of a portfolio key, else the merchant itself.
        self._signer_mid = parent_mid or merchant_id
        self._gateway_key = load_public_key(gateway_public_key_pem) if encrypt else None
        self._gateway_kid = gateway_kid or ""
        self._initiate_path = initiate_path
        self._now_ms = now_ms
        auth = JwsAuth(load_private_key(private_key_pem), kid=kid, merchant_id=merchant_id,
                       encrypted=encrypt, now_ms=now_ms, parent_mid=parent_mid)
        extra: dict[str, Any] = {"sleep": sleep} if sleep is not None else {}
        common: dict[str, Any] = {"timeouts": timeouts, "retry": retry, "session": session}
        self.transport = Transport(base_url, auth=auth, **common, **extra)
        # the pre-authenticated statusUrl carries its own token: no JWS, no merchant headers
        self._public = Transport(base_url, **common, **extra)

    def initiate(self, request: InitiateRequest | dict) -> InitiateResponse:
        """Create the payment; send the customer to ``data.redirectUrl``. Never retried."""
        return self._call("initiate", InitiateResponse, request)

    def status(self, gid_or_txn_id: str) -> StatusResponse:
        """The status by the payment's gid, its merchantUniqueId or a merchantTxnId (of the
        payment or of one of its captures or refunds), signed with a JWS over the path."""
        return self._call("status", StatusResponse, None, id=gid_or_txn_id)

    def status_by_url(self, status_url: str) -> StatusResponse:
        """The payment's status from the pre-authenticated ``statusUrl`` (no JWS needed)."""
        base = self.transport.base_url
        if not status_url.startswith(base + "/"):
            raise ValueError("statusUrl does not point at this gateway")
        prepared = self._public.prepare("GET", status_url[len(base):])
        return self._public.send_and_read(prepared, "status", read_status)

    def capture(self, gid: str, merchant_txn_id: str, amount: str | None = None
                ) -> ActionResponse:
        """Capture the hold once: in full (no amount) or in part (``amount``). Never retried.

        ``merchant_txn_id`` is the capture's own, so a lost answer is settled by its status.
        """
        request: dict[str, Any] = {
            "merchantTxnId": merchant_txn_id,
            "captureType": AmountScope.PARTIAL if amount is not None else AmountScope.FULL,
        }
        if amount is not None:
            request["paymentData"] = {"totalAmount": amount}
        return self._call("capture", ActionResponse, request, gid=gid)

    def reverse(self, gid: str, merchant_txn_id: str) -> ActionResponse:
        """Release the whole hold; only before capture. Never retried."""
        return self._call("auth_reversal", ActionResponse, {"merchantTxnId": merchant_txn_id},
                          gid=gid)

    def refund(self, gid: str, merchant_txn_id: str, currency: str, amount: str | None = None,
               merchant_unique_id: str | None = None) -> RefundResponse:
        """Refund in full (no amount) or in part; each refund has its own merchantTxnId.

        The body is the official PHP SDK's (refund.php): the amount with its currency, and the
        refund's own merchantUniqueId when given.
        """
        request: dict[str, Any] = {
            "merchantTxnId": merchant_txn_id,
            "refundType": AmountScope.PARTIAL if amount is not None else AmountScope.FULL,
        }
        if merchant_unique_id is not None:
            request["merchantUniqueId"] = merchant_unique_id
        if amount is not None:
            request["paymentData"] = {"totalAmount": amount, "txnCurrency": currency}
        return self._call("refund", RefundResponse, request, gid=gid)

    def prepare(self, name: str, request: Any = None, **params: str) -> requests.PreparedRequest:
        """Validate, encode and sign one operation's request without sending it."""
        operation = OPERATIONS[name]
        path = self._initiate_path if name == "initiate" else operation.url_path(**params)
        if operation.request is None:
            return self.transport.prepare(operation.method, path)
        value, errors = validate_payload(operation.request, dump(request))
        if errors:
            raise ValidationFailed(f"{name}: the request is not valid", field_errors=errors)
        body = json_bytes(dump(value))
        if self._gateway_key is None:
            return self.transport.prepare(operation.method, path, body=body)
        token = encrypt_body(body, self._gateway_key, gateway_kid=self._gateway_kid,
                             merchant_id=self._signer_mid, now_ms=self._now_ms())
        return self.transport.prepare(operation.method, path, body=token.encode("ascii"),
                                      content_type="text/plain")

    def _call(self, name: str, shape: type[Answer], request: Any, **params: str) -> Answer:
        prepared = self.prepare(name, request, **params)
        read = read_status if name == "status" else action_reader(name, shape)
        try:
            return self.transport.send_and_read(prepared, name, read)
        except ValidationFailed as exc:
            if name in _IDEMPOTENT_POSTS and names_a_duplicate(exc.field_errors):
                raise MayAlreadyExist(f"{name}: the gateway already has this id",
                                      http_status=exc.http_status, reason_code=exc.reason_code,
                                      gid=exc.gid, body=exc.body) from exc
            raise


#: The POSTs whose body carries a merchantUniqueId, the gateway's idempotency key.
_IDEMPOTENT_POSTS = frozenset({"initiate", "refund"})


def verify_callback_token(token: str, gateway_public_key: RSAKey | str | bytes, now_ms: int,
                          max_age_ms: int = TOKEN_LIFETIME_MS) -> CallbackClaims:
    """Verify the ``x-gl-token`` the customer's browser brings back; return its claims.

    RS256 with the gateway's key only. ``iat`` (epoch ms, or seconds) must be recent and not in
    the future. The claims are a hint: find the payment they name and confirm the outcome with
    a status call before acting on it.
    """
    key = (gateway_public_key if isinstance(gateway_public_key, RSAKey)
           else load_public_key(gateway_public_key))
    _, claims = verify_claims(token, lambda header: key)
    try:
        issued = issued_at_ms(claims.get("iat"))
    except ValueError as exc:
        raise TokenError("The callback token has no usable iat") from exc
    check_age(issued, now_ms, max_age_ms, future="The callback token is issued in the future",
              expired="The callback token is too old")
    try:
        return read_callback_claims(claims)
    except ValueError as exc:
        raise TokenError(f"The callback token has {exc}") from None
