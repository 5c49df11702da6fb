"""Onboarding calls whose raw answers a test reads: the body and HTTP status as sent, not as the
client reads them."""

from __future__ import annotations

from typing import Any

import requests

from portal.gateway.onboarding.client import OnboardingClient


def raw(partner: OnboardingClient, name: str, request: Any = None,
        **params: str) -> requests.Response:
    """Send one operation as ``partner`` signs it; the answer as it came."""
    with requests.Session() as http:
        return http.send(partner.prepare(name, request, **params), timeout=5)
