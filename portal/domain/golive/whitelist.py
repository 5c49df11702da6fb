"""What the partner sends the gateway to whitelist, derived from PORTAL_URL alone."""

from __future__ import annotations

from dataclasses import dataclass

from portal.core.config import Settings
from portal.gateway.onboarding.events import origin_of

#: The onboarding webhook's path (``portal.features.webhooks.routes``).
WEBHOOK_PATH = "/webhooks/onboarding"
#: The payments callback's path (``portal.features.payments.routes``).
CALLBACK_PATH = "/payments/callback"


@dataclass(frozen=True)
class Entry:
    """One address the gateway must allow, and what for."""

    what: str
    value: str


def webhook_url(settings: Settings) -> str:
    """Where the gateway posts onboarding events for this portal."""
    return settings.portal_url.rstrip("/") + WEBHOOK_PATH


def whitelist(settings: Settings) -> list[Entry]:
    """The portal's origin (the verification iframe's parent, in the gateway's CSP), its
    payments callback URL and its webhook URL (docs/gateway-facts.md A7)."""
    base = settings.portal_url.rstrip("/")
    return [Entry("Origin allowed to frame the verification page (the gateway's CSP)",
                  origin_of(base)),
            Entry("Payment callback URL", base + CALLBACK_PATH),
            Entry("Onboarding webhook URL", webhook_url(settings))]
