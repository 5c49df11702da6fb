"""Compact JWE bodies of the payments API, as the official SDKs build them
(docs/gateway-facts.md B1; the gateway's side, decrypting, is the sandbox's:
``portal.sandbox.payments.tokens``).

The merchant encrypts the JSON body to the gateway's RSA public key (RSA-OAEP-256 key wrap,
A128CBC-HS256 content encryption) and sends the compact string as ``text/plain``.
"""

from __future__ import annotations

from joserfc import jwe
from joserfc.jwk import RSAKey

from portal.gateway.payments.jws import TOKEN_LIFETIME_MS

KEY_ALGORITHM = "RSA-OAEP-256"
CONTENT_ALGORITHM = "A128CBC-HS256"

_REGISTRY = jwe.JWERegistry(algorithms=[KEY_ALGORITHM, CONTENT_ALGORITHM],
                            strict_check_header=False)


def encrypt_body(plaintext: bytes, gateway_key: RSAKey, *, gateway_kid: str, merchant_id: str,
                 now_ms: int) -> str:
    """Encrypt a request body to the gateway's public key as a compact JWE."""
    header = {
        "alg": KEY_ALGORITHM,
        "enc": CONTENT_ALGORITHM,
        "kid": gateway_kid,
        "iat": str(now_ms),
        "exp": TOKEN_LIFETIME_MS,
        "issued-by": merchant_id,
        "is-digested": "true",
    }
    return jwe.encrypt_compact(header, plaintext, gateway_key, registry=_REGISTRY)

