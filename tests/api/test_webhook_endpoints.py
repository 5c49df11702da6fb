"""The API's webhooks out, through the same endpoints' service as the admins' page: endpoints
listed (never a secret), added (the secret shown once; a private or loopback address, or no
event, refused at its field; a repeat with its Idempotency-Key adds one), a secret rotated (the
new one verifies a delivery with the Standard Webhooks library), disabled, and the delivery log
in words with an event sent again under the same webhook-id; each call audited as the key's."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import select, text

from portal.core.config import SETTINGS_EXTENSION, Settings
from portal.core.db import db
from portal.core.models.api_key import IdempotentRequest
from portal.core.models.audit import AuditEvent
from portal.domain.api.scopes import Scope
from portal.domain.partner_events.catalogue import EventType
from tests.api.support import Api
from tests.support.partner_webhooks import (
    endpoint_for,
    move,
    receiving,
    send_due,
    stored_deliveries,
    verifies,
)
from tests.support.team import audited, make_merchant

RULE = "/webhook-endpoints"
STATUS = EventType.MERCHANT_STATUS_CHANGED.value
LOCAL = "http://127.0.0.1:8999/hooks"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Loopback allowed, as in tests and development."""
    return settings.with_changes(website_check_allow_loopback=True)


def new_body(url: str = LOCAL, *types: str) -> dict:
    """A new endpoint's body, wanting ``types`` (default: status changes)."""
    return {"url": url, "description": "Stayhub", "eventTypes": list(types or [STATUS])}


def fields_of(answer) -> list[str]:
    """The fields a 422 problem names."""
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    return [error["field"] for error in answer.json["errors"]]


def test_an_endpoint_is_added_with_its_secret_once_and_listed_without_it(app, api: Api,
                                                                          caplog):
    caplog.set_level(logging.DEBUG)
    made = api.post(RULE, new_body(LOCAL, STATUS, EventType.PAYMENT_CAPTURED.value))
    assert made.status_code == 201, made.json
    secret = made.json["secret"]
    assert secret.startswith("whsec_") and "shown only in this answer" in made.json["message"]
    endpoint = made.json["endpoint"]
    assert (endpoint["url"], endpoint["description"], endpoint["active"]) == (
        LOCAL, "Stayhub", True)
    assert endpoint["eventTypes"] == [STATUS, EventType.PAYMENT_CAPTURED.value]
    listed = api.get(RULE)
    assert listed.status_code == 200
    assert [e["id"] for e in listed.json["data"]] == [endpoint["id"]]
    assert set(listed.json["data"][0]) == {"id", "url", "description", "eventTypes", "active",
                                           "createdAt"}
    assert secret not in listed.get_data(as_text=True)
    assert secret not in caplog.text
    with app.app_context():
        stored = db.session.execute(text("SELECT secret FROM partner_endpoints")).scalar()
        trail = [str(e.detail) for e in db.session.scalars(select(AuditEvent))]
    assert secret not in stored and not any(secret in entry for entry in trail)


def test_the_add_is_audited_as_the_keys(app, client, issue_key):
    Api(client, issue_key(Scope.WEBHOOKS, name="Stayhub platform")).post(RULE, new_body())
    [entry] = audited(app, "partner_webhook.add")
    assert entry.actor_label == "API key Stayhub platform"
    assert entry.detail["url"] == LOCAL


def test_a_private_address_or_no_event_is_refused_at_its_field(app, api: Api):
    refused = api.post(RULE, new_body("http://10.1.2.3/hooks"))
    assert fields_of(refused) == ["url"]
    assert "not a public one" in refused.json["errors"][0]["message"]
    assert fields_of(api.post(RULE, {**new_body(), "eventTypes": []})) == [
        "eventTypes"]
    assert fields_of(api.post(RULE, new_body(LOCAL, "merchant.nothing"))) == ["eventTypes[0]"]
    assert api.get(RULE).json["data"] == []
    assert audited(app, "partner_webhook.add") == []


def test_loopback_is_refused_unless_the_setting_allows_it(app, api: Api, settings):
    app.extensions[SETTINGS_EXTENSION] = settings.with_changes(website_check_allow_loopback=False)
    refused = api.post(RULE, new_body(LOCAL))
    assert fields_of(refused) == ["url"]
    assert "https://" in refused.json["errors"][0]["message"]
    refused = api.post(RULE, new_body("https://127.0.0.1/hooks"))
    assert fields_of(refused) == ["url"] and "not a public one" in refused.json["detail"]


def test_a_repeat_with_its_idempotency_key_adds_one_and_keeps_no_secret(app, api: Api):
    first = api.post(RULE, new_body(), idempotency_key="hook-1")
    again = api.post(RULE, new_body(), idempotency_key="hook-1")
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json["endpoint"] == first.json["endpoint"]
    assert again.json["secret"] is None and "rotate" in again.json["message"]
    assert len(api.get(RULE).json["data"]) == 1
    with app.app_context():
        kept = db.session.scalars(select(IdempotentRequest)).one()
        assert first.json["secret"] not in str(kept.answer)


def test_a_rotated_secret_verifies_the_next_delivery(app, api: Api):
    with receiving() as receiver:
        endpoint_id, old = endpoint_for(app, receiver.url, [STATUS])
        rotated = api.post(f"{RULE}/{endpoint_id}/rotate", idempotency_key="rotate-1")
        assert rotated.status_code == 200, rotated.json
        new = rotated.json["secret"]
        assert new.startswith("whsec_") and new != old
        move(app, make_merchant(app, "Lotus Traders", status="PENDING_REVIEW"), "APPROVED")
        send_due(app)
    [request] = receiver.received
    assert verifies(new, request) and verifies(old, request)  # both sign during the change
    [payload] = receiver.verified(new)
    assert payload["type"] == STATUS
    assert new not in api.get(RULE).get_data(as_text=True)
    assert len(audited(app, "partner_webhook.rotate")) == 1


def test_disabling_stops_it_and_a_disabled_one_is_not_rotated(app, api: Api):
    endpoint_id, _ = endpoint_for(app, LOCAL, [STATUS])
    disabled = api.post(f"{RULE}/{endpoint_id}/disable")
    assert disabled.status_code == 200 and disabled.json["active"] is False
    again = api.post(f"{RULE}/{endpoint_id}/disable")
    assert again.status_code == 409 and "disabled already" in again.json["detail"]
    assert api.post(f"{RULE}/{endpoint_id}/rotate").status_code == 409
    move(app, make_merchant(app, "Lotus Traders", status="PENDING_REVIEW"), "APPROVED")
    assert stored_deliveries(app) == []  # nothing more is queued for it
    assert len(audited(app, "partner_webhook.disable")) == 1


def test_the_delivery_log_in_words_and_an_event_sent_again(app, api: Api):
    with receiving() as receiver:
        endpoint_id, secret = endpoint_for(app, receiver.url, [STATUS])
        move(app, make_merchant(app, "Lotus Traders", status="PENDING_REVIEW"), "APPROVED")
        [waiting] = api.get(f"{RULE}/{endpoint_id}/deliveries").json["data"]
        assert (waiting["state"], waiting["stateLabel"], waiting["attempts"]) == (
            "pending", "Waiting for its first try", 0)
        assert waiting["lastAnswer"] is None and waiting["eventType"] == STATUS
        send_due(app)
        [delivered] = api.get(f"{RULE}/{endpoint_id}/deliveries").json["data"]
        assert (delivered["state"], delivered["stateLabel"]) == ("delivered", "Delivered")
        assert delivered["lastAnswer"] == "Taken (HTTP 200)." and delivered["deliveredAt"]
        assert delivered["eventId"] == receiver.received[0].headers["webhook-id"]
        queued = api.post(f"{RULE}/{endpoint_id}/deliveries/{delivered['id']}/send-again")
        assert queued.status_code == 202, queued.json
        assert queued.json["eventId"] == delivered["eventId"]
        assert queued.json["id"] != delivered["id"] and queued.json["state"] == "pending"
        send_due(app)
    assert receiver.unique_ids() == [delivered["eventId"]] and len(receiver.received) == 2
    assert all(verifies(secret, r) for r in receiver.received)
    log = api.get(f"{RULE}/{endpoint_id}/deliveries")
    assert [d["id"] for d in log.json["data"]] == [queued.json["id"], delivered["id"]]
    assert secret not in log.get_data(as_text=True)
    assert len(audited(app, "partner_webhook.replay")) == 1


def test_send_again_refuses_another_endpoints_delivery_and_a_disabled_endpoint(app, api: Api):
    first, _ = endpoint_for(app, LOCAL, [STATUS])
    second, _ = endpoint_for(app, LOCAL, [STATUS])
    move(app, make_merchant(app, "Lotus Traders", status="PENDING_REVIEW"), "APPROVED")
    delivery = next(d.id for d in stored_deliveries(app) if d.endpoint_id == first)
    assert api.post(f"{RULE}/{second}/deliveries/{delivery}/send-again").status_code == 404
    api.post(f"{RULE}/{first}/disable")
    refused = api.post(f"{RULE}/{first}/deliveries/{delivery}/send-again")
    assert refused.status_code == 409 and "disabled" in refused.json["detail"]
    assert len(stored_deliveries(app)) == 2


def test_an_unknown_endpoint_is_a_404(api: Api):
    for answer in (api.get(f"{RULE}/999/deliveries"), api.post(f"{RULE}/999/rotate"),
                   api.post(f"{RULE}/999/disable")):
        assert answer.status_code == 404 and answer.mimetype == "application/problem+json"
