"""Fixtures of the sandbox tests: the sandbox on a loopback port, partners' clients, a webhook
receiver."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask, request

from portal.gateway.onboarding.client import OnboardingClient
from tests.sandbox.payloads import create_body, fill_every_step
from tests.sandbox.support import CONFIG, OTHER_KEY, OTHER_SECRET, START, client_of
from tests.sandbox.webhook_deliveries import Received, Receiver
from tests.support.sandbox import RunningSandbox, answer_dialect_fixture, serve_sandbox
from tests.support.servers import serve


@pytest.fixture(scope="session")
def served_sandbox() -> Iterator[RunningSandbox]:
    """One sandbox server for the session; ``sandbox_server`` resets it for each test."""
    with serve_sandbox(CONFIG, start=START) as running:
        yield running


@pytest.fixture
def sandbox_server(served_sandbox: RunningSandbox) -> RunningSandbox:
    """The sandbox with no records, keys as configured and the clock frozen at START."""
    return served_sandbox.reset()


#: ``answer_dialect`` over ``sandbox_server`` (tests/support/sandbox.py).
answer_dialect = answer_dialect_fixture("sandbox_server")


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
    return partner.create_onboarding(create_body()).record.merchantInfo.onboardingId


@pytest.fixture(scope="module")
def served_receiver() -> Iterator[Receiver]:
    """One receiver served on loopback for the module; ``receiver`` clears it for each test."""
    state = Receiver()
    app = Flask(__name__)

    @app.post("/hook")
    def hook() -> tuple[str, int]:
        state.received.append(Received(dict(request.headers), request.get_data()))
        if state.hold is not None:
            state.hold.wait(5)
        return "", state.answers.pop(0) if state.answers else 200

    with serve(app) as url:
        state.url = url + "/hook"
        yield state


@pytest.fixture
def receiver(served_receiver: Receiver) -> Receiver:
    """The receiver with nothing received, answering 200 at once."""
    served_receiver.received.clear()
    served_receiver.answers.clear()
    served_receiver.hold = None
    return served_receiver


@pytest.fixture
def hooked(sandbox_server: RunningSandbox, receiver: Receiver,
           monkeypatch: pytest.MonkeyPatch) -> RunningSandbox:
    """The sandbox with its webhookUrl pointing at ``receiver``."""
    monkeypatch.setattr(sandbox_server.state.config, "webhookUrl", receiver.url)
    return sandbox_server


@pytest.fixture
def ready(hooked: RunningSandbox, partner: OnboardingClient, onboarding_id: str) -> str:
    """A record with every step filled, ready for the verification page."""
    fill_every_step(partner, onboarding_id)
    return onboarding_id
