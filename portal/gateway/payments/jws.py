"""The payments API's signature: ``x-gl-token-external`` is a compact RS256 JWS whose payload
is the SHA-256 digest of the body (or of the path for GET), as the gateway's SDKs build it;
the callback the customer's browser brings back is a JWS the gateway signs.

The onboarding API signs with an HMAC instead (:mod:`portal.gateway.onboarding.hmac`).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from joserfc import jws
from joserfc.errors import JoseError
from joserfc.jwk import RSAKey

JWS_ALGORITHM = "RS256"
#: Lifetime of a payments token in milliseconds, as the SDKs send it in ``exp``.
TOKEN_LIFETIME_MS = 300_000
#: Clock skew allowed on ``iat``.
CLOCK_SKEW_MS = 60_000
#: What a verifier says of a token refused for its age, the sandbox's words (the portal tells
#: a refusal for the token's age from one of its keys by them: ``refused_for_age``).
EXPIRED_WORDS = "The token has expired"
FUTURE_WORDS = "The token is issued in the future"


class TokenError(Exception):
    """A JWS that does not verify; the message says why without echoing the token."""


def sha256_b64(data: bytes) -> str:
    """Standard padded Base64 of SHA-256, as the SDKs put it in ``digest``."""
    return base64.b64encode(hashlib.sha256(data).digest()).decode("ascii")


def _flag(value: bool) -> str:
    return "true" if value else "false"


#: Distinct keys kept imported per process (a merchant's signing key, the gateway's key).
IMPORTED_KEYS = 64


@functools.lru_cache(maxsize=IMPORTED_KEYS)
def load_private_key(pem: str | bytes) -> RSAKey:
    """Load an RSA private key from PEM. Importing checks the key's consistency (about 35 ms
    of CPU for RSA-2048) and a payments client is built per request, so each PEM is imported
    once per process and the key reused (the key object is only read when signing)."""
    return RSAKey.import_key(pem)


@functools.lru_cache(maxsize=IMPORTED_KEYS)
def load_public_key(pem: str | bytes) -> RSAKey:
    """Load an RSA public key from PEM (once per process per PEM, as private keys)."""
    return RSAKey.import_key(pem)


#: Protected-header names of the payments JWS (the SDKs' spelling).
MERCHANT_CLAIM = "x-gl-merchantId"
ISSUER_CLAIM = "issued-by"
#: Set only when a portfolio (parent MID) key signs for one of its sub-merchants.
KEY_MID_CLAIM = "x-gl-kid-mid"


def sign_digest_token(
    data: bytes, key: RSAKey, *, kid: str, merchant_id: str, encrypted: bool, now_ms: int,
    parent_mid: str | None = None,
) -> str:
    """The ``x-gl-token-external`` JWS over ``data`` (body bytes, or the path for GET).

    With ``parent_mid`` the key is the parent's portfolio key, signing as the official Python
    SDK does: ``issued-by`` and ``x-gl-kid-mid`` name the parent, ``x-gl-merchantId`` stays the
    transacting sub-merchant.
    """
    signer = parent_mid or merchant_id
    header = {
        "alg": JWS_ALGORITHM,
        "kid": kid,
        "iss": signer,
        ISSUER_CLAIM: signer,
        MERCHANT_CLAIM: merchant_id,
        "x-gl-enc": _flag(encrypted),
        "is-digested": "true",
    }
    if parent_mid:
        header[KEY_MID_CLAIM] = parent_mid
    payload = {
        "digest": sha256_b64(data),
        "digestAlgorithm": "SHA-256",
        "iat": str(now_ms),
        "exp": TOKEN_LIFETIME_MS,
    }
    return sign_claims(payload, key, header)


def sign_claims(claims: dict[str, Any], key: RSAKey, header: dict[str, Any]) -> str:
    """Sign a JSON payload as a compact RS256 JWS with the given protected header."""
    protected = {**header, "alg": JWS_ALGORITHM}
    body = json.dumps(claims, separators=(",", ":")).encode("utf-8")
    return jws.serialize_compact(protected, body, key, registry=_REGISTRY)


_REGISTRY = jws.JWSRegistry(algorithms=[JWS_ALGORITHM], strict_check_header=False)


def read_header(token: str) -> dict[str, Any]:
    """The protected header of a compact JWS, unverified (to choose the key)."""
    try:
        head = token.split(".", 1)[0]
        header = json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:  # deeply nested JSON
        raise TokenError("The token is not a compact JWS") from exc
    if not isinstance(header, dict):
        raise TokenError("The token header is not an object")
    return header


def verify_claims(token: str, key_for: Callable[[dict[str, Any]], RSAKey | None]) -> tuple[
    dict[str, Any], dict[str, Any]
]:
    """Verify an RS256 compact JWS; ``key_for(header)`` picks the key or returns None.

    Returns ``(header, claims)``. Any other algorithm, ``none`` included, is refused.
    """
    header = read_header(token)
    if header.get("alg") != JWS_ALGORITHM:
        raise TokenError(f"Algorithm {header.get('alg')!r} is not accepted; use RS256")
    key = key_for(header)
    if key is None:
        raise TokenError("No key is registered for this kid")
    try:
        result = jws.deserialize_compact(token, key, registry=_REGISTRY)
    except (JoseError, ValueError) as exc:
        raise TokenError("The signature does not verify") from exc
    try:
        claims = json.loads(result.payload)
    except ValueError as exc:
        raise TokenError("The token payload is not JSON") from exc
    if not isinstance(claims, dict):
        raise TokenError("The token payload is not an object")
    return header, claims


def check_age(issued_ms: int, now_ms: int, lifetime_ms: int, *, future: str = FUTURE_WORDS,
              expired: str = EXPIRED_WORDS) -> None:
    """Refuse a token issued after ``now_ms`` or older than ``lifetime_ms`` (epoch ms), each
    beyond the allowed clock skew, with the words given (default: the sandbox's)."""
    if issued_ms > now_ms + CLOCK_SKEW_MS:
        raise TokenError(future)
    if now_ms > issued_ms + lifetime_ms + CLOCK_SKEW_MS:
        raise TokenError(expired)


def refused_for_age(message: str) -> bool:
    """Whether a refusal's words say the token was too old or from the future (not its key)."""
    text = message.lower()
    return any(words.lower() in text for words in (EXPIRED_WORDS, FUTURE_WORDS))
