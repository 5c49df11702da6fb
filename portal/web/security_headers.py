"""Security headers on every response."""

from __future__ import annotations

from flask import Response, request

from portal.core.config import Settings, current_settings

#: Production only: browsers then refuse plain HTTP to the portal for a year.
STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains"


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


def is_static_asset() -> bool:
    """True when the request is for the portal's own CSS, JavaScript or images."""
    endpoint = request.endpoint or ""
    return endpoint == "static" or endpoint.endswith(".static")


def add_security_headers(response: Response) -> Response:
    """Set CSP, nosniff, referrer and framing headers unless a view set its own CSP; HSTS in
    production; ``no-store`` on everything but static assets (pages and downloads show KYC and
    payment data, which no browser or proxy cache may keep)."""
    settings = current_settings()
    if not settings.is_development:
        response.headers["Strict-Transport-Security"] = STRICT_TRANSPORT_SECURITY
    if not is_static_asset():
        response.headers["Cache-Control"] = "no-store"
    response.headers.setdefault("Content-Security-Policy",
                                content_security_policy(settings, frame_from_gateway=False))
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response
