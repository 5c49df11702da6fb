"""Onboarding webhooks: payloads, signature, delivery on tick(), retries on the clock, faults."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
import requests
from flask import Flask, request

from portal.gateway.onboarding_client import OnboardingClient
from portal.gateway.signing import hmac_digest
from portal.sandbox.webhooks import dispatcher as webhooks
from tests.sandbox.conftest import KEY, SECOND_SECRET, SECRET, START
from tests.sandbox.payloads import business, document, fill_every_step
from tests.support.sandbox import RunningSandbox
from tests.support.servers import serve

TNC = "MERCHANT_TERMS_AND_CONDITIONS_ACKNOWLEDGED"
DIGILOCKER = "MERCHANT_DIGILOCKER_CKYC_COMPLETED"
VKYC = "MERCHANT_VKYC_COMPLETED"
ACCEPTED = "MERCHANT_STATUS_ACCEPTED"
PENDENCY = "MERCHANT_PENDENCY_STATUS_UPDATED"
PENDENCY_KEYS = {f"pendency_info_{key}" for key in (
    "category", "sub_category", "reason", "status", "creation_time", "cards_approval_blocking",
    "mca_approval_blocking")}
COMMON_KEYS = {"event_id", "onboarding_id", "onboarding_status", "event_timestamp", "status"}
START_MS = str(int(START.timestamp() * 1000))


@dataclass
class Received:
    """One delivery as the receiver saw it."""

    headers: dict[str, str]
    body: bytes

    @property
    def payload(self) -> dict[str, str]:
        """The JSON body."""
        return json.loads(self.body)


@dataclass
class Receiver:
    """A loopback webhook receiver: it records what arrives and answers from ``answers``."""

    url: str = ""
    received: list[Received] = field(default_factory=list)
    #: Status codes to answer with, first to last; 200 once they run out.
    answers: list[int] = field(default_factory=list)
    #: When set, the receiver waits for this event before answering.
    hold: threading.Event | None = None

    def events(self) -> list[str]:
        """The ``status`` (event name) of each delivery, in arrival order."""
        return [r.payload["status"] for r in self.received]


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


def verify_all(sandbox: RunningSandbox, onboarding_id: str) -> None:
    """The verification page's three steps, as the page calls them."""
    sandbox.backend.acknowledge_tnc(onboarding_id)
    sandbox.backend.complete_digilocker(onboarding_id)
    sandbox.backend.complete_verification(onboarding_id)


def outcomes(sandbox: RunningSandbox) -> list[tuple[str, int, int | None, str]]:
    """The delivery log as (event, attempt, status code, outcome)."""
    return [(d.event, d.attempt, d.status_code, d.outcome)
            for d in sandbox.backend.webhooks.deliveries()]


def test_steps_and_approval_are_delivered_signed_in_order(hooked, receiver, ready):
    verify_all(hooked, ready)
    assert receiver.received == []  # raising an event only queues it
    hooked.backend.tick()
    assert receiver.events() == [TNC, DIGILOCKER, VKYC, ACCEPTED]
    for delivery in receiver.received:
        assert delivery.headers["Content-Type"] == "application/json"
        assert delivery.headers["X-Gl-Digest"] == hmac_digest(SECRET, delivery.body)
        payload = delivery.payload
        assert all(isinstance(value, str) for value in payload.values())
        assert payload["onboarding_id"] == ready
        assert payload["event_timestamp"] == START_MS
    tnc, digilocker, vkyc, accepted = (r.payload for r in receiver.received)
    assert set(tnc) == COMMON_KEYS | {"terms_and_conditions_acknowledged"}
    assert tnc["terms_and_conditions_acknowledged"] == "true"
    assert tnc["onboarding_status"] == "PENDING_VERIFICATION"
    assert digilocker["digilocker_ckyc_completed"] == "true"
    assert (vkyc["vkyc_completed"], vkyc["onboarding_status"]) == ("true", "PENDING_REVIEW")
    assert set(accepted) == COMMON_KEYS | {"merchant_id"}
    assert accepted["onboarding_status"] == "APPROVED"
    assert accepted["merchant_id"].startswith("UCIC")
    assert len({r.payload["event_id"] for r in receiver.received}) == 4
    assert outcomes(hooked) == [(event, 1, 200, "delivered") for event in receiver.events()]
    assert hooked.backend.webhooks.pending() == 0


def test_the_verification_page_never_waits_on_the_receiver(hooked, receiver, partner, ready):
    link = partner.get_verification_redirect(ready, {"callBackUrl": "https://p.example/done"})
    page = requests.get(link.redirectLink, timeout=5)
    session = page.text.split('name="session" value="', 1)[1].split('"', 1)[0]
    response = requests.post(hooked.url + "/verification", timeout=5,
                             data={"session": session, "action": "tnc", "accept": "yes"})
    assert response.status_code == 200
    assert receiver.received == []
    hooked.backend.tick()
    assert receiver.events() == [TNC]


def test_signed_with_the_partners_first_active_secret(hooked, receiver, ready):
    hooked.backend.set_key_active(KEY, False)
    hooked.backend.acknowledge_tnc(ready)
    hooked.backend.tick()
    delivery = receiver.received[0]
    assert delivery.headers["X-Gl-Digest"] == hmac_digest(SECOND_SECRET, delivery.body)


@pytest.mark.parametrize(("name", "outcome", "pendency_status"), [
    ("Acme RFI Widgets Ltd", "RFI", "OPEN"),
    ("Acme REJECT Widgets Ltd", "REJECTED", "REJECTED"),
])
def test_rfi_and_rejection_are_pendency_updates(hooked, receiver, partner, ready, name,
                                                outcome, pendency_status):
    partner.update_business_details(ready, business(registeredName=name))
    verify_all(hooked, ready)
    hooked.backend.tick()
    assert receiver.events() == [TNC, DIGILOCKER, VKYC, PENDENCY]
    pendency = receiver.received[-1].payload
    assert set(pendency) == COMMON_KEYS | PENDENCY_KEYS
    assert pendency["onboarding_status"] == outcome
    assert pendency["pendency_info_status"] == pendency_status
    assert pendency["pendency_info_creation_time"] == START_MS


def test_rfi_names_the_document_and_the_next_review_is_delivered(hooked, receiver, partner,
                                                                 ready):
    partner.update_business_details(ready, business(registeredName="Acme RFI Ltd"))
    verify_all(hooked, ready)
    hooked.backend.tick()
    pendency = receiver.received[-1].payload
    assert pendency["pendency_info_sub_category"] == "BANK_STATEMENT"
    assert "BANK_STATEMENT" in pendency["pendency_info_reason"]
    partner.upload_document(ready, document("BANK_STATEMENT"))
    hooked.backend.tick()
    assert receiver.events()[-1] == ACCEPTED


def test_failed_delivery_is_retried_on_the_clock_then_dropped(hooked, receiver, ready):
    receiver.answers = [500, 500, 500, 500]
    backend, clock = hooked.backend, hooked.clock
    backend.acknowledge_tnc(ready)
    backend.tick()
    for wait in (60, 300, 1800):
        clock.advance(wait - 1)
        backend.tick()
        assert len(receiver.received) == len(backend.webhooks.deliveries())  # not yet
        clock.advance(1)
        backend.tick()
    clock.advance(24 * 3600)
    backend.tick()
    assert outcomes(hooked) == [(TNC, 1, 500, "retry"), (TNC, 2, 500, "retry"),
                                (TNC, 3, 500, "retry"), (TNC, 4, 500, "dropped")]
    assert len({r.body for r in receiver.received}) == 1  # the same bytes each time
    assert len(receiver.received) == 4
    assert backend.webhooks.pending() == 0


def test_redelivery_that_succeeds_ends_the_retries(hooked, receiver, ready):
    receiver.answers = [503]
    hooked.backend.acknowledge_tnc(ready)
    hooked.backend.tick()
    hooked.clock.advance(60)
    hooked.backend.tick()
    hooked.clock.advance(3600)
    hooked.backend.tick()
    assert outcomes(hooked) == [(TNC, 1, 503, "retry"), (TNC, 2, 200, "delivered")]


def test_retry_schedule_comes_from_the_config(hooked, receiver, ready, monkeypatch):
    monkeypatch.setattr(hooked.state.config, "webhookRetrySeconds", [5.0])
    receiver.answers = [500, 500]
    hooked.backend.acknowledge_tnc(ready)
    hooked.backend.tick()
    hooked.clock.advance(5)
    hooked.backend.tick()
    assert outcomes(hooked) == [(TNC, 1, 500, "retry"), (TNC, 2, 500, "dropped")]


def test_a_refused_connection_is_retried(sandbox_server, partner, onboarding_id, monkeypatch):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(sandbox_server.state.config, "webhookUrl", f"http://127.0.0.1:{port}/")
    fill_every_step(partner, onboarding_id)
    sandbox_server.backend.acknowledge_tnc(onboarding_id)
    sandbox_server.backend.tick()
    [attempt] = sandbox_server.backend.webhooks.deliveries()
    assert (attempt.status_code, attempt.error, attempt.outcome) == (
        None, "ConnectionError", "retry")


def test_an_answer_later_than_the_timeout_is_retried(hooked, receiver, ready, monkeypatch):
    monkeypatch.setattr(webhooks, "DELIVERY_TIMEOUT_SECONDS", 0.2)
    receiver.hold = threading.Event()
    try:
        hooked.backend.acknowledge_tnc(ready)
        hooked.backend.tick()
    finally:
        receiver.hold.set()
    [attempt] = hooked.backend.webhooks.deliveries()
    assert (attempt.status_code, attempt.error, attempt.outcome) == (
        None, "ReadTimeout", "retry")


def test_no_webhook_url_means_nothing_is_queued(sandbox_server, partner, onboarding_id):
    fill_every_step(partner, onboarding_id)
    verify_all(sandbox_server, onboarding_id)
    sandbox_server.backend.tick()
    assert sandbox_server.backend.webhooks.pending() == 0
    assert sandbox_server.backend.webhooks.deliveries() == []


def test_duplicate_fault_delivers_each_event_twice(hooked, receiver, ready):
    response = requests.post(hooked.url + "/_sandbox/webhooks/faults",
                             json={"duplicate": True}, timeout=5)
    assert response.json()["data"]["faults"] == {"duplicate": True, "reverse_order": False}
    hooked.backend.acknowledge_tnc(ready)
    hooked.backend.complete_digilocker(ready)
    hooked.backend.tick()
    assert receiver.events() == [TNC, TNC, DIGILOCKER, DIGILOCKER]
    first, second = receiver.received[:2]
    assert first.body == second.body  # same event_id: the receiver can tell


def test_reverse_order_fault_sends_a_batch_newest_first(hooked, receiver, ready):
    requests.post(hooked.url + "/_sandbox/webhooks/faults", json={"reverse_order": True},
                  timeout=5)
    verify_all(hooked, ready)
    hooked.backend.tick()
    assert receiver.events() == [ACCEPTED, VKYC, DIGILOCKER, TNC]


def test_faults_come_from_the_config_and_a_reset_restores_them(hooked, monkeypatch):
    webhooks_ = hooked.backend.webhooks
    monkeypatch.setattr(hooked.state.config, "webhookReverseOrder", True)
    requests.post(hooked.url + "/_sandbox/webhooks/faults", json={"duplicate": True}, timeout=5)
    assert webhooks_.faults() == webhooks.WebhookFaults(duplicate=True, reverse_order=False)
    requests.post(hooked.url + "/_sandbox/reset", timeout=5)
    assert webhooks_.faults() == webhooks.WebhookFaults(duplicate=False, reverse_order=True)


@pytest.mark.parametrize("body", [{"duplicate": "maybe"}, {"reverse_order": [1]}, {"other": True}])
def test_fault_switches_are_validated(hooked, body):
    response = requests.post(hooked.url + "/_sandbox/webhooks/faults", json=body, timeout=5)
    assert response.status_code == 400
    assert response.json()["reasonCode"] == "VALIDATION_ERROR"


def test_delivery_log_is_exposed(hooked, receiver, ready):
    receiver.answers = [500]
    hooked.backend.acknowledge_tnc(ready)
    hooked.backend.tick()
    data = requests.get(hooked.url + "/_sandbox/webhooks", timeout=5).json()["data"]
    assert data["pending"] == 1
    [entry] = data["deliveries"]
    assert entry["eventId"] == receiver.received[0].payload["event_id"]
    assert {k: entry[k] for k in ("event", "onboardingId", "attempt", "statusCode", "outcome")} \
        == {"event": TNC, "onboardingId": ready, "attempt": 1, "statusCode": 500,
            "outcome": "retry"}
