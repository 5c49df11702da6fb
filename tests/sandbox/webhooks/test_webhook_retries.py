"""A webhook delivery that fails: retried on the sandbox clock, then dropped, all in the log."""

from __future__ import annotations

import socket
import threading

import requests

from portal.sandbox.webhooks import dispatcher as webhooks
from tests.sandbox.payloads import fill_every_step
from tests.sandbox.webhook_deliveries import TNC, outcomes


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
