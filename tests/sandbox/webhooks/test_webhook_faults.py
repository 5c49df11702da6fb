"""The sandbox's webhook fault switches: duplicate and reverse-order deliveries."""

from __future__ import annotations

import pytest
import requests

from portal.sandbox.webhooks import dispatcher as webhooks
from tests.sandbox.webhook_deliveries import ACCEPTED, DIGILOCKER, TNC, VKYC, verify_all


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
