"""What the verification page posts to its parent window (CONTRACT.md), and to which origin.

Every message is ``{eventName, eventData: {onboardingId}}``; a STEP message adds ``stepName``
(TNC, DIGILOCKER or VKYC). It is posted with the callBackUrl's exact origin as targetOrigin.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

#: Ports left out of an origin because they are the scheme's default.
DEFAULT_PORTS = {"http": 80, "https": 443}


class MessageName(StrEnum):
    """The ``eventName`` of a message to the parent window."""

    STEP = "PARTNER_MERCHANT_VERIFICATION_STEP"
    COMPLETE = "PARTNER_MERCHANT_VERIFICATION_COMPLETE"
    CLOSED = "PARTNER_MERCHANT_VERIFICATION_CLOSED"


class StepName(StrEnum):
    """The ``stepName`` of a STEP message: the step just completed."""

    TNC = "TNC"
    DIGILOCKER = "DIGILOCKER"
    VKYC = "VKYC"


def message(name: MessageName, onboarding_id: str,
            step: StepName | None = None) -> dict[str, Any]:
    """One message as the page posts it."""
    data: dict[str, str] = {"onboardingId": onboarding_id}
    if step is not None:
        data["stepName"] = str(step)
    return {"eventName": str(name), "eventData": data}


def origin_of(url: str) -> str:
    """The origin of an absolute URL: scheme, host and a non-default port (no user info)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    port = parts.port
    if port is not None and port != DEFAULT_PORTS.get(parts.scheme):
        host = f"{host}:{port}"
    return f"{parts.scheme}://{host}"
