"""Events for partners are written in the same transaction as the change they report: a status
move, a product accepted, a pendency kept each write one, with one delivery per active endpoint
that wants its type; a change rolled back leaves no event; no payload names a PAN."""

from __future__ import annotations

import json

from portal.core.db import db
from portal.core.models.partner_webhook import PartnerEndpoint
from portal.domain.partner_events.catalogue import EventType
from portal.domain.partner_events.endpoints import disable
from tests.support.partner_webhooks import (
    ADMIN,
    endpoint_for,
    move,
    stored_deliveries,
    stored_events,
)
from tests.support.product_events import CARDS, accepted, ask_for, deliver, pendency
from tests.support.rows import stored
from tests.support.team import make_merchant

PAN = "ABCPE1234F"
STATUS = EventType.MERCHANT_STATUS_CHANGED.value


def test_a_status_move_writes_one_event_delivered_to_each_endpoint_that_wants_it(app):
    wanted, _ = endpoint_for(app, "http://127.0.0.1:9/a", [STATUS])
    endpoint_for(app, "http://127.0.0.1:9/b", [EventType.PAYMENT_CAPTURED.value])
    gone, _ = endpoint_for(app, "http://127.0.0.1:9/c", [STATUS])
    with app.app_context():
        disable(db.session.get(PartnerEndpoint, gone), ADMIN)
        db.session.commit()
    merchant_id = make_merchant(app, "Lotus Traders", status="PENDING_REVIEW", pan=PAN)

    move(app, merchant_id, "APPROVED")

    [event] = stored_events(app)
    assert event.type == STATUS and event.event_id.startswith("evt_")
    assert event.payload["type"] == STATUS
    assert event.payload["data"] == {
        "merchantId": merchant_id, "externalOnboardingId": "team-lotus_traders",
        "onboardingId": "pg_onboard_lotus_traders", "status": "APPROVED",
        "statusLabel": "Approved", "previousStatus": "PENDING_REVIEW"}
    assert PAN not in json.dumps(event.payload)
    assert [(d.endpoint_id, d.state, d.attempts) for d in stored_deliveries(app)] == [
        (wanted, "pending", 0)]


def test_a_status_move_rolled_back_leaves_no_event_and_no_delivery(app):
    endpoint_for(app, "http://127.0.0.1:9/a")
    merchant_id = make_merchant(app, "Lotus Traders", status="PENDING_REVIEW")

    move(app, merchant_id, "APPROVED", commit=False)

    assert stored(app, merchant_id).status == "PENDING_REVIEW"
    assert stored_events(app) == []
    assert stored_deliveries(app) == []


def test_a_product_accepted_and_a_pendency_kept_each_tell_once(app):
    endpoint_for(app, "http://127.0.0.1:9/a")
    merchant_id = make_merchant(app, "Lotus Traders", status="APPROVED", pan=PAN)
    ask_for(app, merchant_id)
    onboarding_id = stored(app, merchant_id).onboarding_id

    for event_id in ("e1", "e1", "e2"):  # a redelivery, and the same news in a new event
        deliver(app, accepted(onboarding_id, CARDS, event_id))
    deliver(app, pendency(onboarding_id, "p1"))
    deliver(app, pendency(onboarding_id, "p1"))

    events = stored_events(app)
    assert [e.type for e in events] == [EventType.MERCHANT_PRODUCT_ACCEPTED.value,
                                        EventType.MERCHANT_NEEDS_ACTION.value]
    assert events[0].payload["data"]["product"] == "CARDS"
    assert events[1].payload["data"] | {"merchantId": 0} == {
        "merchantId": 0, "externalOnboardingId": "team-lotus_traders",
        "onboardingId": onboarding_id, "reason": "pendency", "category": "COMPLIANCE",
        "pendencyStatus": "OPEN"}
    assert "refund policy" not in json.dumps(events[1].payload)  # the gateway's own words stay
    assert len(stored_deliveries(app)) == 2


def test_a_move_to_rfi_also_says_the_merchant_needs_action(app):
    endpoint_for(app, "http://127.0.0.1:9/a", [EventType.MERCHANT_NEEDS_ACTION.value])
    merchant_id = make_merchant(app, "Lotus Traders", status="PENDING_REVIEW")

    move(app, merchant_id, "RFI")

    events = stored_events(app)
    assert [e.type for e in events] == [STATUS, EventType.MERCHANT_NEEDS_ACTION.value]
    assert events[1].payload["data"]["reason"] == "rfi"
    assert [d.event_id for d in stored_deliveries(app)] == [events[1].id]
