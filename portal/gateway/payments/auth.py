"""requests auth for the payments API: ``x-gl-token-external`` over the exact bytes sent."""

from __future__ import annotations

from collections.abc import Callable

import requests
from joserfc.jwk import RSAKey

from portal.gateway.onboarding.hmac import signing_input
from portal.gateway.payments.jws import sign_digest_token

TOKEN_HEADER = "x-gl-token-external"  # noqa: S105  # nosec B105  # a header name, not a secret
MERCHANT_HEADER = "x-gl-merchantid"
KID_HEADER = "x-gl-kid"
#: The MID whose key signed, sent only with a portfolio (parent MID) key.
KEY_MID_HEADER = "x-gl-kid-mid"


class JwsAuth(requests.auth.AuthBase):
    """Sign the prepared request: the JWS digests the body bytes (POST) or the path (GET).

    ``parent_mid`` names the portfolio whose key signs for the sub-merchant ``merchant_id``.
    """

    def __init__(self, key: RSAKey, *, kid: str, merchant_id: str, encrypted: bool,
                 now_ms: Callable[[], int], parent_mid: str | None = None) -> None:
        self._key = key
        self._kid = kid
        self._merchant_id = merchant_id
        self._parent_mid = parent_mid
        self._encrypted = encrypted
        self._now_ms = now_ms

    def __call__(self, prepared: requests.PreparedRequest) -> requests.PreparedRequest:
        """Add the token, merchant id and key id headers to a prepared request."""
        prepared.headers[TOKEN_HEADER] = sign_digest_token(
            signing_input(prepared), self._key, kid=self._kid, merchant_id=self._merchant_id,
            encrypted=self._encrypted, now_ms=self._now_ms(), parent_mid=self._parent_mid,
        )
        prepared.headers[MERCHANT_HEADER] = self._merchant_id
        prepared.headers[KID_HEADER] = self._kid
        if self._parent_mid:
            prepared.headers[KEY_MID_HEADER] = self._parent_mid
        return prepared

    def __repr__(self) -> str:
        return (f"JwsAuth(kid={self._kid!r}, merchant_id={self._merchant_id!r}, "
                f"parent_mid={self._parent_mid!r}, key=<hidden>)")
