"""Fixtures of the sandbox tests: the sandbox on a loopback port and partners' clients."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from portal.clock import Clock
from portal.gateway.onboarding_client import OnboardingClient
from portal.gateway.retry import NO_RETRY
from portal.sandbox.app import create_sandbox_app, state_of
from portal.sandbox.config import config_from
from portal.sandbox.onboarding.backend import OnboardingBackend
from portal.sandbox.state import BACKEND_NAME, SandboxState
from tests.sandbox.payloads import create_body
from tests.servers import serve

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


@dataclass
class Sandbox:
    """The sandbox served on loopback, with its state, onboarding backend and clock at hand."""

    url: str
    state: SandboxState
    clock: Clock

    @property
    def backend(self) -> OnboardingBackend:
        """The onboarding API's backend."""
        return self.state.backends[BACKEND_NAME]

    def client(self, api_key: str = KEY, api_secret: str = SECRET) -> OnboardingClient:
        """A client signing with the given key, never retrying (a retry would hide a bug)."""
        return OnboardingClient(self.url, api_key, api_secret, retry=NO_RETRY)


@pytest.fixture(scope="session")
def served_sandbox() -> Iterator[Sandbox]:
    """One sandbox server for the session; ``sandbox_server`` resets it for each test."""
    clock = Clock(START)
    app = create_sandbox_app(config_from(CONFIG), clock=clock)
    with serve(app) as url:
        yield Sandbox(url=url, state=state_of(app), clock=clock)


@pytest.fixture
def sandbox_server(served_sandbox: Sandbox) -> Sandbox:
    """The sandbox with no records, keys as configured and the clock frozen at START."""
    served_sandbox.state.reset()
    served_sandbox.clock.freeze(START)
    return served_sandbox


@pytest.fixture
def partner(sandbox_server: Sandbox) -> OnboardingClient:
    """Partner p1's client."""
    return sandbox_server.client()


@pytest.fixture
def other_partner(sandbox_server: Sandbox) -> OnboardingClient:
    """Partner p2's client."""
    return sandbox_server.client(OTHER_KEY, OTHER_SECRET)


@pytest.fixture
def onboarding_id(partner: OnboardingClient) -> str:
    """A freshly created record of partner p1."""
    return partner.create_onboarding(create_body()).merchantInfo.onboardingId
