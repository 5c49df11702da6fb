"""requests auth for the payments API: ``x-gl-token-external`` over the exact bytes sent."""

from __future__ import annotations

from collections.abc import Callable

import requests
from joserfc.jwk import RSAKey

from portal.gateway.signing import sign_digest_token, signing_input

TOKEN_HEADER = "x-gl-token-external"  # noqa: S105  # nosec B105  # a header name, not a secret
MERCHANT_HEADER = "x-gl-merchantid"
KID_HEADER = "x-gl-kid"


class JwsAuth(requests.auth.AuthBase):
    """Sign the prepared request: the JWS digests the body bytes (POST) or the path (GET)."""

    def __init__(self, key: RSAKey, *, kid: str, merchant_id: str, encrypted: bool,
                 now_ms: Callable[[], int]) -> None:
        self._key = key
        self._kid = kid
        self._merchant_id = merchant_id
        self._encrypted = encrypted
        self._now_ms = now_ms

    def __call__(self, prepared: requests.PreparedRequest) -> requests.PreparedRequest:
        """Add the token, merchant id and key id headers to a prepared request."""
        prepared.headers[TOKEN_HEADER] = sign_digest_token(
            signing_input(prepared), self._key, kid=self._kid, merchant_id=self._merchant_id,
            encrypted=self._encrypted, now_ms=self._now_ms(),
        )
        prepared.headers[MERCHANT_HEADER] = self._merchant_id
        prepared.headers[KID_HEADER] = self._kid
        return prepared

    def __repr__(self) -> str:
        return f"JwsAuth(kid={self._kid!r}, merchant_id={self._merchant_id!r}, key=<hidden>)"
