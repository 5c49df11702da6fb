"""Onboarding authentication: ``x-gl-auth`` names an active key, ``x-gl-digest`` proves its secret.

The digest covers exactly what arrived: the raw body bytes for POST and PUT, and for GET the
request path plus ``?query`` as written on the request line (percent-encoding untouched).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from flask import Request

from portal.gateway.onboarding.hmac import (
    AUTH_HEADER,
    DIGEST_HEADER,
    digests_match,
    matching_secret,
)
from portal.sandbox.common.errors import unauthorized
from portal.sandbox.onboarding.streamed_json import SpooledBody, spool

#: Methods whose digest covers the path and query instead of the body.
PATH_SIGNED_METHODS = frozenset({"GET", "HEAD", "DELETE"})
#: Characters a client leaves unescaped in a path (as ``requests`` does), for the fallback.
_PATH_SAFE = "/!$&'()*+,;=:@~"
DIGEST_MISMATCH = f"{DIGEST_HEADER} does not match the request"


@dataclass
class PartnerKeyState:
    """One API key as the sandbox holds it; ``active`` can change at runtime."""

    partner_id: str
    secret: str
    active: bool


def raw_request_path(environ: dict[str, Any]) -> str:
    """The path and query exactly as on the request line (no scheme, no host).

    The server's raw request URI is used when it gives one; otherwise the path is re-encoded
    from ``PATH_INFO``, which matches what common clients send.
    """
    raw = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    if raw:
        if raw.startswith("/"):
            return raw
        parts = urlsplit(raw)  # absolute-form request line: keep only path and query
        return parts.path + (f"?{parts.query}" if parts.query else "")
    path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
    query = environ.get("QUERY_STRING", "")
    encoded = quote(path.encode("latin-1"), safe=_PATH_SAFE)
    return encoded + (f"?{query}" if query else "")


def signed_bytes(request: Request) -> bytes:
    """What the request's digest must cover."""
    if request.method in PATH_SIGNED_METHODS:
        return raw_request_path(request.environ).encode("latin-1")
    return request.get_data(cache=True)


def authenticate(request: Request,
                 active_key: Callable[[str], PartnerKeyState | None]) -> str:
    """The partner id of a correctly signed request; 401 UNAUTHORIZED otherwise.

    ``active_key(api_key)`` returns the key's partner and secret if it is known and active.
    """
    key, digest = _signing_key(request, active_key)
    if not matching_secret([key.secret], signed_bytes(request), digest):
        raise unauthorized(DIGEST_MISMATCH)
    return key.partner_id


def authenticate_streamed(request: Request, active_key: Callable[[str], PartnerKeyState | None]
                          ) -> tuple[str, SpooledBody]:
    """As :func:`authenticate`, for a large body: it is read a chunk at a time into a spooled
    file, its HMAC computed on the way. The partner id and the body as received."""
    key, digest = _signing_key(request, active_key)
    body = spool(request.stream, hmac.new(key.secret.encode("utf-8"), digestmod=hashlib.sha256))
    if not digests_match(body.digest, digest):
        body.file.close()
        raise unauthorized(DIGEST_MISMATCH)
    return key.partner_id, body


def _signing_key(request: Request, active_key: Callable[[str], PartnerKeyState | None]
                 ) -> tuple[PartnerKeyState, str]:
    """The active key the request names and the digest it carries; 401 without them."""
    api_key = request.headers.get(AUTH_HEADER, "")
    digest = request.headers.get(DIGEST_HEADER, "")
    if not api_key or not digest:
        raise unauthorized(f"Both {AUTH_HEADER} and {DIGEST_HEADER} are required")
    key = active_key(api_key)
    if key is None:
        raise unauthorized("Unknown or inactive API key")
    return key, digest
