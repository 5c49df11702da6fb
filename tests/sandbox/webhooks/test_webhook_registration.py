"""Webhook registration over loopback HTTP: ``POST``/``GET /gcc/v2/partner/{mid}/webhook`` and
``DELETE .../webhook/{webhookId}``, HMAC-authenticated like every onboarding call, and the
deliveries going where the partner registered (docs/gateway-contract.md, "Webhook registration")."""

from __future__ import annotations

import pytest
import requests

from portal.gateway.errors import Forbidden, NotFound, Unauthorized, ValidationFailed
from portal.gateway.onboarding.operations import OPERATIONS
from tests.sandbox.payloads import fill_every_step
from tests.sandbox.support import OTHER_KEY, OTHER_SECRET, SECRET, client_of
from tests.sandbox.webhook_deliveries import TNC
from tests.support.sandbox import RunningSandbox

MID = "p1"  # the partner's MID is its partnerId in the sandbox config


def test_register_list_and_delete(partner):
    hook = partner.register_webhook(MID, "https://partner.example/hooks/onboarding")
    assert hook.webhookId.startswith("wh_")
    assert hook.webhookUrl == "https://partner.example/hooks/onboarding"
    assert [h.webhookId for h in partner.list_webhooks(MID).webhooks] == [hook.webhookId]
    assert partner.delete_webhook(MID, hook.webhookId).webhookId == hook.webhookId
    assert partner.list_webhooks(MID).webhooks == []


def test_registering_a_url_again_returns_the_same_webhook(partner):
    first = partner.register_webhook(MID, "https://partner.example/a")
    again = partner.register_webhook(MID, "https://partner.example/a")
    assert again.webhookId == first.webhookId
    assert len(partner.list_webhooks(MID).webhooks) == 1


def test_register_answers_201_in_the_envelope(sandbox_server, partner):
    prepared = partner.prepare("register_webhook", {"webhookUrl": "https://partner.example/x"},
                               mid=MID)
    with requests.Session() as http:
        answer = http.send(prepared, timeout=5)
    assert answer.status_code == 201, answer.text
    assert answer.json()["data"]["webhookUrl"] == "https://partner.example/x"


def test_a_url_that_is_not_http_is_refused_on_its_field(partner):
    with pytest.raises(ValidationFailed) as error:
        partner.register_webhook(MID, "ftp://partner.example/hook")
    assert [e.field for e in error.value.field_errors] == ["webhookUrl"]


def test_another_partners_mid_is_403(partner, other_partner):
    with pytest.raises(Forbidden):
        other_partner.register_webhook(MID, "https://partner.example/x")
    with pytest.raises(Forbidden):
        other_partner.list_webhooks(MID)


def test_another_partner_cannot_delete_my_webhook(partner, other_partner):
    hook = partner.register_webhook(MID, "https://partner.example/x")
    with pytest.raises(NotFound):
        other_partner.delete_webhook("p2", hook.webhookId)
    assert len(partner.list_webhooks(MID).webhooks) == 1


def test_deleting_an_unknown_webhook_is_404(partner):
    with pytest.raises(NotFound):
        partner.delete_webhook(MID, "wh_nothing")


@pytest.mark.parametrize("operation", ["register_webhook", "list_webhooks", "delete_webhook"])
def test_a_wrong_secret_is_401(sandbox_server, operation):
    client = client_of(sandbox_server, OTHER_KEY, SECRET)  # p2's key with p1's secret
    calls = {
        "register_webhook": lambda: client.register_webhook("p2", "https://partner.example/x"),
        "list_webhooks": lambda: client.list_webhooks("p2"),
        "delete_webhook": lambda: client.delete_webhook("p2", "wh_x"),
    }
    with pytest.raises(Unauthorized):
        calls[operation]()


def test_delete_is_signed_over_its_path(sandbox_server):
    client = client_of(sandbox_server, OTHER_KEY, OTHER_SECRET)
    prepared = client.prepare("delete_webhook", mid="p2", webhookId="wh_x")
    assert prepared.method == "DELETE" and prepared.body is None
    assert prepared.path_url == OPERATIONS["delete_webhook"].url_path(mid="p2", webhookId="wh_x")
    prepared.headers["x-gl-digest"] = "AAAA"
    with requests.Session() as http:
        assert http.send(prepared, timeout=5).status_code == 401


def _deliver_tnc(sandbox: RunningSandbox, partner, onboarding_id: str) -> None:
    fill_every_step(partner, onboarding_id)
    sandbox.backend.acknowledge_tnc(onboarding_id)
    sandbox.backend.tick()


def test_events_go_to_the_registered_webhook_not_the_config_url(sandbox_server, partner,
                                                                onboarding_id, receiver,
                                                                monkeypatch):
    monkeypatch.setattr(sandbox_server.state.config, "webhookUrl", receiver.url + "?config")
    partner.register_webhook(MID, receiver.url)
    _deliver_tnc(sandbox_server, partner, onboarding_id)
    assert receiver.events() == [TNC]
    assert [d.outcome for d in sandbox_server.backend.webhooks.deliveries()] == ["delivered"]


def test_every_registered_webhook_gets_the_event(sandbox_server, partner, onboarding_id,
                                                 receiver):
    partner.register_webhook(MID, receiver.url)
    partner.register_webhook(MID, receiver.url + "?second")
    _deliver_tnc(sandbox_server, partner, onboarding_id)
    assert receiver.events() == [TNC, TNC]
    assert receiver.received[0].body == receiver.received[1].body


def test_a_deleted_webhook_receives_nothing(sandbox_server, partner, onboarding_id, receiver):
    hook = partner.register_webhook(MID, receiver.url)
    partner.delete_webhook(MID, hook.webhookId)
    _deliver_tnc(sandbox_server, partner, onboarding_id)
    assert receiver.received == []


def test_another_partners_webhook_does_not_get_my_events(sandbox_server, partner,
                                                         other_partner, onboarding_id, receiver):
    other_partner.register_webhook("p2", receiver.url)
    _deliver_tnc(sandbox_server, partner, onboarding_id)
    assert receiver.received == []


def test_a_reset_forgets_registrations(sandbox_server, partner):
    partner.register_webhook(MID, "https://partner.example/x")
    sandbox_server.state.reset()
    assert partner.list_webhooks(MID).webhooks == []
