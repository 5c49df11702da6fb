"""Time-based one-time passwords (RFC 6238) from an authenticator app, via ``pyotp``.

pyotp is the well-kept implementation of RFC 4226/6238 (HMAC-SHA1, 30-second steps, 6 digits,
the defaults every authenticator app uses); segno draws the enrolment QR code as SVG without
an imaging library. Only the choice of the accepted step is ours: one step of clock drift either
way, and never a step at or before the last one accepted, so a code cannot be replayed.
"""

from __future__ import annotations

import hmac
from datetime import datetime

import pyotp
import segno

ISSUER = "Partner Onboarding Portal"
DIGITS = 6
#: Steps of clock drift accepted either side of the current one.
DRIFT_STEPS = 1


def new_secret() -> str:
    """A fresh random base32 secret (160 bits)."""
    return pyotp.random_base32(32)


def provisioning_uri(secret: str, email: str) -> str:
    """The ``otpauth://`` URI an authenticator app reads from the QR code."""
    return pyotp.TOTP(secret).provisioning_uri(name=email, issuer_name=ISSUER)


def qr_code_data_uri(uri: str) -> str:
    """``uri`` as a QR code in an SVG ``data:`` URI, for an ``<img>`` (the CSP allows data:)."""
    return segno.make(uri, error="m").svg_data_uri(scale=5, border=2)


def matching_step(secret: str, code: str, at: datetime, after: int | None) -> int | None:
    """The time step near ``at`` whose code ``code`` is, if it is later than ``after``."""
    typed = "".join(code.split())
    if len(typed) != DIGITS or not typed.isdigit():
        return None
    totp = pyotp.TOTP(secret)
    current = totp.timecode(at)
    for step in range(current - DRIFT_STEPS, current + DRIFT_STEPS + 1):
        if (after is None or step > after) and hmac.compare_digest(totp.generate_otp(step), typed):
            return step
    return None
