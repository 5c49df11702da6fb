"""Security headers on every response."""

from __future__ import annotations

from flask import Response

from portal.config import Settings, current_settings


def content_security_policy(settings: Settings, *, frame_from_gateway: bool) -> str:
    """The portal's CSP; pages that embed the verification iframe allow frames from the gateway."""
    frames = settings.verification_origin if frame_from_gateway else "'none'"
    form_targets = " ".join(filter(None, ["'self'", settings.payments_url]))
    return "; ".join([
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        f"frame-src {frames}",
        "frame-ancestors 'none'",
        f"form-action {form_targets}",
        "base-uri 'none'",
        "object-src 'none'",
    ])


def add_security_headers(response: Response) -> Response:
    """Set CSP, nosniff, referrer and framing headers unless a view set its own CSP."""
    settings = current_settings()
    response.headers.setdefault("Content-Security-Policy",
                                content_security_policy(settings, frame_from_gateway=False))
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response
