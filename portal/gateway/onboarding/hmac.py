"""The onboarding API's signature: ``x-gl-digest`` is the standard padded Base64 of
HMAC-SHA256, keyed with the API secret, over the exact body bytes sent (POST/PUT) or the path
and query exactly as sent (GET); ``x-gl-auth`` carries the API key.

The payments API signs the same input (:func:`signing_input`) with a JWS instead
(:mod:`portal.gateway.payments.jws`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import tempfile
from collections.abc import Iterable, Iterator
from typing import Self

import requests

AUTH_HEADER = "x-gl-auth"
DIGEST_HEADER = "x-gl-digest"
#: A body written while it is signed stays in memory up to this size, then goes to disk.
SPOOL_BYTES = 1024 * 1024
#: How much of such a body is handed to the connection at a time.
SEND_CHUNK = 64 * 1024


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
