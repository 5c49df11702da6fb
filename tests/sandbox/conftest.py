"""Fixtures of the sandbox tests: the sandbox on a loopback port and partners' clients."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from portal.gateway.onboarding_client import OnboardingClient
from portal.gateway.retry import NO_RETRY
from tests.sandbox.payloads import create_body
from tests.support.sandbox import RunningSandbox, serve_sandbox

KEY = "p1-key"
SECRET = "p1-secret-0123456789"
SECOND_KEY = "p1-key-2"
SECOND_SECRET = "p1-secret-2-0123456789"
RETIRED_KEY = "p1-retired"
RETIRED_SECRET = "p1-retired-secret"
OTHER_KEY = "p2-key"
OTHER_SECRET = "p2-secret-0123456789"
START = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)

CONFIG = {
    "partners": [
        {"partnerId": "p1", "keys": [
            {"apiKey": KEY, "apiSecret": SECRET},
            {"apiKey": SECOND_KEY, "apiSecret": SECOND_SECRET},
            {"apiKey": RETIRED_KEY, "apiSecret": RETIRED_SECRET, "active": False},
        ]},
        {"partnerId": "p2", "keys": [{"apiKey": OTHER_KEY, "apiSecret": OTHER_SECRET}]},
    ]
}


def client_of(sandbox: RunningSandbox, api_key: str = KEY,
              api_secret: str = SECRET) -> OnboardingClient:
    """A client signing with the given key, never retrying (a retry would hide a bug)."""
    return OnboardingClient(sandbox.url, api_key, api_secret, retry=NO_RETRY)


@pytest.fixture(scope="session")
def served_sandbox() -> Iterator[RunningSandbox]:
    """One sandbox server for the session; ``sandbox_server`` resets it for each test."""
    with serve_sandbox(CONFIG, start=START) as running:
        yield running


@pytest.fixture
def sandbox_server(served_sandbox: RunningSandbox) -> RunningSandbox:
    """The sandbox with no records, keys as configured and the clock frozen at START."""
    return served_sandbox.reset()


@pytest.fixture
def partner(sandbox_server: RunningSandbox) -> OnboardingClient:
    """Partner p1's client."""
    return client_of(sandbox_server)


@pytest.fixture
def other_partner(sandbox_server: RunningSandbox) -> OnboardingClient:
    """Partner p2's client."""
    return client_of(sandbox_server, OTHER_KEY, OTHER_SECRET)


@pytest.fixture
def onboarding_id(partner: OnboardingClient) -> str:
    """A freshly created record of partner p1."""
    return partner.create_onboarding(create_body()).merchantInfo.onboardingId
