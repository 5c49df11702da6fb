"""What the sandbox checks of a merchant's signed call beyond the signature, and how it opens a
JWE body: the gateway's side of :mod:`portal.gateway.payments.jws` and
:mod:`portal.gateway.payments.jwe`."""

from __future__ import annotations

from typing import Any

from joserfc import jwe
from joserfc.errors import JoseError
from joserfc.jwk import RSAKey

from portal.gateway.onboarding.hmac import digests_match
from portal.gateway.payments.jwe import CONTENT_ALGORITHM, KEY_ALGORITHM
from portal.gateway.payments.jws import TOKEN_LIFETIME_MS, TokenError, check_age, sha256_b64

#: ``issued-by`` in the protected header of the tokens the gateway signs.
GATEWAY_ISSUER = "Glocal"

_REGISTRY = jwe.JWERegistry(algorithms=[KEY_ALGORITHM, CONTENT_ALGORITHM],
                            strict_check_header=False)


def check_digest_claims(claims: dict[str, Any], data: bytes, now_ms: int) -> None:
    """Check a verified token's digest against ``data`` and its ``iat`` against the clock."""
    if str(claims.get("digestAlgorithm", "SHA-256")).upper() not in ("SHA-256", "SHA256"):
        raise TokenError("Only SHA-256 digests are accepted")
    if not digests_match(sha256_b64(data), str(claims.get("digest", ""))):
        raise TokenError("The digest does not match the request")
    try:
        issued = int(str(claims["iat"]))
        lifetime = int(str(claims.get("exp", TOKEN_LIFETIME_MS)))
    except (KeyError, ValueError) as exc:
        raise TokenError("iat and exp must be integers (milliseconds)") from exc
    check_age(issued, now_ms, lifetime)


def decrypt_body(token: str, gateway_key: RSAKey) -> bytes:
    """Decrypt a compact JWE body with the gateway's private key; other algorithms are refused."""
    try:
        return jwe.decrypt_compact(token.strip(), gateway_key, registry=_REGISTRY).plaintext
    except (JoseError, ValueError, TypeError) as exc:
        raise TokenError("The body is not a JWE this gateway can decrypt") from exc
