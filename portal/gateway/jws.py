"""Signatures of both gateway APIs.

Onboarding: ``x-gl-digest`` is the standard padded Base64 of HMAC-SHA256, keyed with the API
secret, over the exact body bytes sent (POST/PUT) or the path and query exactly as sent (GET).

Payments: ``x-gl-token-external`` is a compact RS256 JWS whose payload is the SHA-256 digest of
the body (or of the path for GET), as CONTRACT.md and the gateway's SDKs build it.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import json
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Self

import requests
from joserfc import jws
from joserfc.errors import JoseError
from joserfc.jwk import RSAKey

AUTH_HEADER = "x-gl-auth"
DIGEST_HEADER = "x-gl-digest"
JWS_ALGORITHM = "RS256"
#: Lifetime of a payments token in milliseconds, as the SDKs send it in ``exp``.
TOKEN_LIFETIME_MS = 300_000
#: Clock skew allowed on ``iat``.
CLOCK_SKEW_MS = 60_000
#: What a verifier says of a token refused for its age, the sandbox's words (the portal tells
#: a refusal for the token's age from one of its keys by them: ``refused_for_age``).
EXPIRED_WORDS = "The token has expired"
FUTURE_WORDS = "The token is issued in the future"
#: A body written while it is signed stays in memory up to this size, then goes to disk.
SPOOL_BYTES = 1024 * 1024
#: How much of such a body is handed to the connection at a time.
SEND_CHUNK = 64 * 1024


# ---------------------------------------------------------------- onboarding HMAC


def hmac_digest(secret: str, data: bytes) -> str:
    """Standard padded Base64 of HMAC-SHA256 of ``data`` keyed with ``secret``."""
    mac = hmac.new(secret.encode("utf-8"), data, hashlib.sha256).digest()
    return base64.b64encode(mac).decode("ascii")


def signing_input(prepared: requests.PreparedRequest) -> bytes:
    """What the onboarding digest covers for a prepared request.

    POST and PUT: the body bytes exactly as they will be sent. GET: ``path_url`` (path plus
    ``?query``, percent-encoded as on the wire, no scheme or host).
    """
    if prepared.method in ("GET", "HEAD", "DELETE"):
        return prepared.path_url.encode("ascii")
    body = prepared.body or b""
    return body.encode("utf-8") if isinstance(body, str) else body


def digests_match(expected: str, received: str) -> bool:
    """Compare two digests in constant time."""
    return hmac.compare_digest(expected.encode("ascii", "replace"), received.encode("ascii",
                                                                                    "replace"))


def matching_secret(secrets: Iterable[str], data: bytes, received: str) -> bool:
    """Whether ``received`` is the digest of ``data`` under any of ``secrets``."""
    found = False
    for secret in secrets:
        # no early exit: every active secret is tried, whatever matched first
        found |= digests_match(hmac_digest(secret, data), received)
    return found


class SignedBody:
    """A request body written piece by piece into a spooled temporary file, each piece fed to
    the HMAC as it is written, so the digest covers exactly the bytes that will be read back
    and sent. ``requests`` sends it as a file (its length is the Content-Length); the
    transport rewinds it before each attempt."""

    def __init__(self, mac: hmac.HMAC) -> None:
        self._mac = mac
        self._file = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)  # noqa: SIM115
        self._length = 0
        self.digest = ""

    def write(self, data: bytes) -> None:
        """Append ``data`` to the body and to its digest."""
        self._mac.update(data)
        self._file.write(data)
        self._length += len(data)

    def finish(self) -> Self:
        """The body complete: its digest fixed, read from the start."""
        self.digest = base64.b64encode(self._mac.digest()).decode("ascii")
        self._file.seek(0)
        return self

    def read(self, size: int = -1) -> bytes:
        """The next ``size`` bytes (all that are left by default)."""
        return self._file.read(size)

    def seek(self, offset: int, whence: int = 0) -> int:
        """Move the read position (0: back to the start, for a retry)."""
        return self._file.seek(offset, whence)

    def tell(self) -> int:
        """The read position."""
        return self._file.tell()

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[bytes]:
        return iter(lambda: self.read(SEND_CHUNK), b"")

    def close(self) -> None:
        """Drop the temporary file."""
        self._file.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class HmacAuth(requests.auth.AuthBase):
    """requests auth that signs the prepared request, so the bytes signed are the bytes sent."""

    def __init__(self, api_key: str, api_secret: str) -> None:
        self._api_key = api_key
        self._api_secret = api_secret

    def __call__(self, prepared: requests.PreparedRequest) -> requests.PreparedRequest:
        """Add ``x-gl-auth`` and ``x-gl-digest`` to a prepared request (a :class:`SignedBody`
        brings the digest it was written with)."""
        prepared.headers[AUTH_HEADER] = self._api_key
        body = prepared.body
        prepared.headers[DIGEST_HEADER] = (
            body.digest if isinstance(body, SignedBody)
            else hmac_digest(self._api_secret, signing_input(prepared)))
        return prepared

    def signed_body(self) -> SignedBody:
        """An empty body to write into, signed with this key's secret as it is written."""
        return SignedBody(hmac.new(self._api_secret.encode("utf-8"), digestmod=hashlib.sha256))

    def __repr__(self) -> str:
        return f"HmacAuth(api_key={self._api_key!r}, api_secret=<hidden>)"


# ---------------------------------------------------------------- payments JWS


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
    if issued > now_ms + CLOCK_SKEW_MS:
        raise TokenError(FUTURE_WORDS)
    if now_ms > issued + lifetime + CLOCK_SKEW_MS:
        raise TokenError(EXPIRED_WORDS)


def refused_for_age(message: str) -> bool:
    """Whether a refusal's words say the token was too old or from the future (not its key)."""
    text = message.lower()
    return any(words.lower() in text for words in (EXPIRED_WORDS, FUTURE_WORDS))
