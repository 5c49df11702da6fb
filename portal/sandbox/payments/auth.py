"""Who may sign for a merchant, and the gateway's own key: merchant JWS keys and portfolios, the
checks on ``x-gl-token-external``, JWE bodies, and the tokens the gateway signs itself."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from joserfc.jwk import RSAKey

from portal.core.clock import Clock, system_now
from portal.gateway.payments.answers import CallbackClaims
from portal.gateway.payments.jws import (
    ISSUER_CLAIM,
    KEY_MID_CLAIM,
    MERCHANT_CLAIM,
    TOKEN_LIFETIME_MS,
    TokenError,
    load_private_key,
    load_public_key,
    sign_claims,
    verify_claims,
)
from portal.gateway.shapes import FieldError
from portal.sandbox.common.config import SandboxConfig
from portal.sandbox.common.dialect import speaks_docs
from portal.sandbox.common.errors import unauthorized, validation_error
from portal.sandbox.payments.records import Payment
from portal.sandbox.payments.tokens import GATEWAY_ISSUER, check_digest_claims, decrypt_body

#: The ``scope`` claim that keeps the gateway's own tokens to their one use.
CHECKOUT_SCOPE = "checkout"
STATUS_SCOPE = "status"
#: Query parameter (statusUrl, redirectUrl) and callback form field of the gateway's tokens.
TOKEN_PARAM = "x-gl-token"  # noqa: S105  # nosec B105  # a parameter name, not a secret
#: The errorDetails field named when the body as a whole is wrong.
BODY_FIELD = "body"


def _truthy(flag: Any) -> bool:
    """A header flag sent as the string ``"true"`` or the boolean ``true``."""
    return flag is True or (isinstance(flag, str) and flag.lower() == "true")


@dataclass(frozen=True)
class MerchantKey:
    """A registered public key and the MID it is bound to."""

    mid: str
    key: RSAKey


@dataclass(frozen=True)
class Caller:
    """Who signed a request, and whether its body is a JWE."""

    mid: str
    encrypted: bool


class GatewayKey:
    """The gateway's own RSA key pair: signs callbacks and tokens, decrypts JWE bodies."""

    def __init__(self, private_pem: str | None) -> None:
        private = load_private_key(private_pem) if private_pem else RSAKey.generate_key(2048)
        self.private = private
        self.public_pem: str = private.as_pem(private=False).decode("ascii")
        self.public = load_public_key(self.public_pem)
        self.kid = private.thumbprint()

    def sign(self, claims: dict[str, Any]) -> str:
        """A compact RS256 JWS with the header the gateway's callbacks carry."""
        header = {"kid": self.kid, "issued-by": GATEWAY_ISSUER, "is-digested": "false"}
        return sign_claims(claims, self.private, header)

    def verify(self, token: str) -> dict[str, Any]:
        """The claims of a token this gateway signed."""
        return verify_claims(token, lambda header: self.public)[1]


class PaymentsAuth:
    """The keys of the payments API (merchants', portfolios' and the gateway's) and the checks
    and tokens made with them; one lock guards them, since the sandbox is served threaded."""

    def __init__(self, config: SandboxConfig, clock: Clock) -> None:
        self._config = config
        self._clock = clock
        self._lock = threading.RLock()
        self.gateway_key = GatewayKey(config.gatewayPrivateKeyPem)
        self._keys = {
            key.kid: MerchantKey(merchant.mid, load_public_key(key.publicKeyPem))
            for merchant in config.merchants
            for key in merchant.keys
        }
        #: Portfolio (parent) MID -> the sub-merchant MIDs its keys may sign for.
        self._portfolios: dict[str, set[str]] = {
            merchant.mid: set(merchant.subMerchants) for merchant in config.merchants
            if merchant.subMerchants
        }

    def register_key(self, mid: str, kid: str, public_key_pem: str,
                     sub_merchants: Iterable[str] = ()) -> None:
        """Accept JWS signed with this public key under ``kid`` for ``mid`` (replacing ``kid``);
        ``sub_merchants`` join ``mid``'s portfolio, so the key signs for them too."""
        try:
            key = load_public_key(public_key_pem)
        except (ValueError, TypeError):
            raise validation_error([FieldError("publicKeyPem", "Not an RSA public key in PEM")]
                                   ) from None
        with self._lock:
            self._keys[kid] = MerchantKey(mid, key)
            if sub_merchants:
                self._portfolios.setdefault(mid, set()).update(sub_merchants)

    def keys_snapshot(self) -> dict[str, Any]:
        """The registered keys and portfolios as JSON, for a restart to keep."""
        with self._lock:
            return {"keys": {kid: {"mid": entry.mid,
                                   "publicKeyPem": entry.key.as_pem(private=False).decode("ascii")}
                             for kid, entry in self._keys.items()},
                    "portfolios": {mid: sorted(subs) for mid, subs in self._portfolios.items()}}

    def restore_keys(self, data: dict[str, Any]) -> None:
        """Take back what :meth:`keys_snapshot` kept."""
        keys = {kid: MerchantKey(entry["mid"], load_public_key(entry["publicKeyPem"]))
                for kid, entry in data.get("keys", {}).items()}
        with self._lock:
            self._keys.update(keys)
            for mid, subs in data.get("portfolios", {}).items():
                self._portfolios.setdefault(mid, set()).update(subs)

    def sub_merchants(self, parent_mid: str) -> frozenset[str]:
        """The MIDs a portfolio (parent MID) key may sign for."""
        with self._lock:
            return frozenset(self._portfolios.get(parent_mid, ()))

    # ------------------------------------------------------------ authentication

    def authenticate(self, token: str | None, merchant_id: str | None, kid: str | None,
                     signed: bytes, key_mid: str | None = None) -> Caller:
        """Check ``x-gl-token-external`` over ``signed`` (body bytes, or the path for GET).

        ``merchant_id`` is the transacting MID (``x-gl-merchantid``); ``key_mid`` the optional
        ``x-gl-kid-mid`` header naming the MID whose key signed.
        """
        if not token:
            raise unauthorized("x-gl-token-external is missing")
        if not merchant_id:
            raise unauthorized("x-gl-merchantid is missing")
        try:
            header, claims = verify_claims(
                token, lambda h: self._merchant_key(h, merchant_id, kid, key_mid))
            if not _truthy(header.get("is-digested")):
                raise TokenError("Only digested tokens (is-digested true) are accepted")
            _check_lifetime(claims)
            self._check_fresh(claims, signed)
        except TokenError as exc:
            raise unauthorized(str(exc)) from None
        return Caller(merchant_id, _truthy(header.get("x-gl-enc")))

    def _check_fresh(self, claims: dict[str, Any], signed: bytes) -> None:
        """The digest, and the token's age judged on the sandbox's clock or, when that was
        moved (``/_sandbox/clock``), on the real time a client signs with: moving the clock to
        see a review or a hold's expiry must not make every merchant's signature too old."""
        try:
            check_digest_claims(claims, signed, self._clock.now_ms())
        except TokenError as on_sandbox_clock:
            try:
                check_digest_claims(claims, signed, int(system_now().timestamp() * 1000))
            except TokenError:
                raise on_sandbox_clock from None

    def _merchant_key(self, header: dict[str, Any], merchant_id: str, kid: str | None,
                      key_mid: str | None) -> RSAKey:
        """The key that must verify the token, once the header's MIDs agree with each other.

        A merchant's own key signs for that merchant. A portfolio key signs for one of the parent's
        sub-merchants, and then the header says so: ``x-gl-kid-mid`` and ``issued-by`` name the
        parent, ``x-gl-merchantId`` the sub-merchant (docs/gateway-contract.md, portfolio keys)."""
        token_kid = header.get("kid")
        with self._lock:
            entry = self._keys.get(token_kid) if isinstance(token_kid, str) else None
            subs = frozenset(self._portfolios.get(entry.mid, ())) if entry else frozenset()
        if entry is None:
            raise TokenError("No key is registered for this kid")
        if kid is not None and kid != token_kid:
            raise TokenError("x-gl-kid differs from the token's kid")
        if header.get(MERCHANT_CLAIM, merchant_id) != merchant_id:
            raise TokenError(f"The token's {MERCHANT_CLAIM} is not x-gl-merchantid")
        portfolio = header.get(KEY_MID_CLAIM)
        if portfolio is not None or key_mid is not None:
            if portfolio != entry.mid or key_mid not in (None, entry.mid):
                raise TokenError(f"{KEY_MID_CLAIM} is not the MID of the signing key")
            if merchant_id not in subs | {entry.mid}:
                raise TokenError("This portfolio key does not sign for this merchant")
        elif entry.mid != merchant_id:
            raise TokenError("This key belongs to another merchant")
        for name in ("iss", ISSUER_CLAIM):
            if name in header and header[name] != entry.mid:
                raise TokenError(f"The token's {name} is not the key's merchant")
        return entry.key

    def decode_body(self, raw: bytes, encrypted: bool) -> Any:
        """The JSON value of a request body, decrypting a JWE first when the token says so."""
        try:
            if encrypted:
                raw = decrypt_body(raw.decode("ascii"), self.gateway_key.private)
            return json.loads(raw)
        except TokenError as exc:
            raise validation_error([FieldError(BODY_FIELD, str(exc))]) from None
        except (ValueError, RecursionError):
            raise validation_error([FieldError(BODY_FIELD, "The body is not valid JSON")]) from None

    # ------------------------------------------------------------ gateway-signed tokens

    def scoped_token(self, gid: str, scope: str) -> str:
        """A gateway-signed token that opens one payment's checkout page or status."""
        return self.gateway_key.sign({"gid": gid, "scope": scope,
                                      "iat": str(self._clock.now_ms())})

    def gid_of(self, token: str | None, scope: str) -> str:
        """The gid a scoped token opens; 401 when it is missing, forged or for another use."""
        try:
            claims = self.gateway_key.verify(token or "")
        except TokenError:
            raise unauthorized("The x-gl-token is not valid") from None
        if claims.get("scope") != scope or not isinstance(claims.get("gid"), str):
            raise unauthorized("The x-gl-token is not valid here")
        return claims["gid"]

    def callback_token(self, payment: Payment, status_url: str) -> str:
        """The ``x-gl-token`` the customer's browser carries back to the merchant: the claims
        the PHP SDK recorded from the real gateway (no merchantTxnId, no reasonCode); in the
        docs dialect those of the pre-signed token of 2025 (``x-gl-orderId`` the order id,
        ``x-gl-gid`` the transaction's, no gid, status or statusUrl) with ``iat`` in seconds, as
        guides/webhooks.mdx shows it."""
        if speaks_docs(self._config.answerDialect):
            claims = CallbackClaims(
                gidHeader=payment.transaction_gid, orderId=payment.gid,
                merchantId=payment.mid, iat=self._clock.now_ms() // 1000, exp=TOKEN_LIFETIME_MS)
        else:
            claims = CallbackClaims(
                gid=payment.gid, status=payment.status, statusUrl=status_url,
                merchantUniqueId=payment.request.merchantUniqueId, gidHeader=payment.gid,
                merchantId=payment.mid, iat=str(self._clock.now_ms()), exp=TOKEN_LIFETIME_MS)
        return self.gateway_key.sign(claims.model_dump(by_alias=True, exclude_none=True))

def _check_lifetime(claims: dict[str, Any]) -> None:
    """``exp`` is a lifetime in ms; a token may not grant itself more than the SDKs' 5 minutes."""
    try:
        lifetime = int(str(claims.get("exp", TOKEN_LIFETIME_MS)))
    except ValueError:
        raise TokenError("exp must be a lifetime in milliseconds") from None
    if not 0 < lifetime <= TOKEN_LIFETIME_MS:
        raise TokenError(f"exp must be a lifetime of at most {TOKEN_LIFETIME_MS} ms")
