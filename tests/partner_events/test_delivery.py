"""Delivering the events to a receiver on a loopback port: signed as Standard Webhooks says
(verified with its library), retried on the schedule with the portal's clock moved, failed
after it, both secrets signing during a rotation, private addresses refused, sent again with
the same webhook-id, and the worker's job doing it all."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
import urllib3
from standardwebhooks.webhooks import Webhook

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.partner_webhook import PartnerDelivery, PartnerEndpoint
from portal.domain.partner_events import sending
from portal.domain.partner_events.endpoints import (
    ROTATION_OVERLAP,
    EndpointRefused,
    add_endpoint,
    checked_url,
    disable,
    rotate_secret,
    send_again,
)
from portal.domain.partner_events.schedule import MAX_TRIES, RETRY_SCHEDULE
from portal.domain.partner_events.signing import new_secret
from tests.support.partner_webhooks import (
    ADMIN,
    Receiver,
    endpoint_for,
    move,
    receiving,
    send_due,
    stored_deliveries,
    stored_events,
    verifies,
)
from tests.support.servers import silent_address
from tests.support.team import make_merchant
from tests.support.workers import run_worker


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Loopback allowed, as in tests and development, so the worker reaches the receiver."""
    return settings.with_changes(website_check_allow_loopback=True)


def one_event(app, name: str = "Lotus Traders") -> str:
    """A merchant's status move (one event); the event's id."""
    merchant_id = make_merchant(app, name, status="PENDING_REVIEW")
    move(app, merchant_id, "APPROVED")
    return stored_events(app)[-1].event_id


def test_a_delivery_is_signed_and_the_receiver_verifies_it(app):
    with receiving() as receiver:
        _, secret = endpoint_for(app, receiver.url)
        event_id = one_event(app)
        send_due(app)

    [payload] = receiver.verified(secret)
    assert payload["type"] == "merchant.status_changed"
    assert payload["data"]["status"] == "APPROVED"
    assert receiver.received[0].headers["webhook-id"] == event_id
    assert receiver.received[0].headers["content-type"] == "application/json"
    [delivery] = stored_deliveries(app)
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("delivered", 1, 200)
    assert delivery.delivered_at is not None and delivery.last_error == "Taken (HTTP 200)."


def test_failures_are_tried_again_on_the_schedule_then_failed(app, portal_clock):
    with receiving(Receiver(answers=[500] * MAX_TRIES)) as receiver:
        endpoint_for(app, receiver.url)
        one_event(app)
        send_due(app)
        tried_at = [portal_clock.now()]
        for wait in RETRY_SCHEDULE:
            portal_clock.advance(wait.total_seconds() - 1)
            send_due(app)  # a second early: not due yet
            assert len(receiver.received) == len(tried_at)
            portal_clock.advance(1)
            send_due(app)
            assert len(receiver.received) == len(tried_at) + 1
            tried_at.append(portal_clock.now())
        portal_clock.advance(timedelta(days=2).total_seconds())
        send_due(app)

    assert len(receiver.received) == MAX_TRIES == 8
    assert len(receiver.unique_ids()) == 1  # every try is the same event
    assert [b - a for a, b in itertools.pairwise(tried_at)] == list(RETRY_SCHEDULE)
    assert sum(RETRY_SCHEDULE, timedelta()) > timedelta(days=1)
    [delivery] = stored_deliveries(app)
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("failed", 8, 500)
    assert delivery.last_error == "The endpoint failed (HTTP 500)."


def test_a_2xx_after_a_failure_delivers_and_a_redirect_is_not_followed(app, portal_clock):
    with receiving(Receiver(answers=[302, 204])) as receiver:
        endpoint_for(app, receiver.url)
        one_event(app)
        send_due(app)
        [delivery] = stored_deliveries(app)
        assert delivery.state == "pending" and delivery.last_status == 302
        assert "redirect" in delivery.last_error and "not followed" in delivery.last_error
        portal_clock.advance(RETRY_SCHEDULE[0].total_seconds())
        send_due(app)

    [delivery] = stored_deliveries(app)
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("delivered", 2, 204)
    assert len(receiver.received) == 2


def test_during_a_rotation_both_secrets_sign_and_after_it_the_new_one_alone(app):
    with receiving() as receiver:
        endpoint_id, old = endpoint_for(app, receiver.url)
        with app.app_context():
            new = rotate_secret(db.session.get(PartnerEndpoint, endpoint_id), ADMIN).secret
            db.session.commit()
        one_event(app)
        send_due(app)
        during = receiver.received[-1]
        assert verifies(old, during) and verifies(new, during)
        assert len(during.headers["webhook-signature"].split()) == 2

        clock.current.advance((ROTATION_OVERLAP + timedelta(minutes=1)).total_seconds())
        one_event(app, "Chai Point")
        send_due(app)

    after = receiver.received[-1]
    stamp = int(after.headers["webhook-timestamp"])
    signature = after.headers["webhook-signature"]
    at = datetime.fromtimestamp(stamp, UTC)
    assert signature == Webhook(new).sign(after.headers["webhook-id"], at, after.body)
    assert Webhook(old).sign(after.headers["webhook-id"], at, after.body) not in signature


@pytest.mark.parametrize("url", ["http://10.0.0.7/hooks", "http://169.254.169.254/latest",
                                 "http://[fc00::1]/hooks", "http://192.168.1.20/"])
def test_a_private_address_is_refused(app, url):
    with app.app_context(), pytest.raises(EndpointRefused, match="not a public one") as refused:
        checked_url(url, allow_loopback=True)
    assert refused.value.field == "url"


def test_loopback_and_plain_http_are_refused_without_the_setting(app):
    with app.app_context():
        with pytest.raises(EndpointRefused, match="not a public one"):
            checked_url("https://127.0.0.1/hooks", allow_loopback=False)
        with pytest.raises(EndpointRefused, match="must start with https://"):
            checked_url("http://hooks.example.com/", allow_loopback=False)
        with pytest.raises(EndpointRefused, match="at least one event"):
            add_endpoint("http://127.0.0.1:9/", "", [], None, ADMIN, allow_loopback=True)


def test_an_endpoint_that_now_resolves_to_a_private_address_is_not_posted_to(app):
    with app.app_context():  # stored as if its name had been public when it was added
        db.session.add(PartnerEndpoint(url="http://10.0.0.7/hooks", event_types=[
            "merchant.status_changed"], active=True, secret=new_secret()))
        db.session.commit()
    one_event(app)
    send_due(app)

    [delivery] = stored_deliveries(app)
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("pending", 1, None)
    assert "not a public one" in delivery.last_error


def test_sending_again_is_a_new_delivery_with_the_same_webhook_id(app):
    with receiving() as receiver:
        _, secret = endpoint_for(app, receiver.url)
        event_id = one_event(app)
        send_due(app)
        with app.app_context():
            send_again(db.session.get(PartnerDelivery, stored_deliveries(app)[0].id), ADMIN)
            db.session.commit()
        send_due(app)

    assert [r.headers["webhook-id"] for r in receiver.received] == [event_id, event_id]
    assert len(receiver.verified(secret)) == 2 and receiver.unique_ids() == [event_id]
    assert [d.state for d in stored_deliveries(app)] == ["delivered", "delivered"]


def test_a_delivery_to_an_endpoint_disabled_meanwhile_fails_unsent(app):
    with receiving() as receiver:
        endpoint_id, _ = endpoint_for(app, receiver.url)
        one_event(app)
        with app.app_context():
            assert disable(db.session.get(PartnerEndpoint, endpoint_id), ADMIN)
            db.session.commit()
        send_due(app)

    assert receiver.received == []
    [delivery] = stored_deliveries(app)
    assert delivery.state == "failed" and "disabled" in delivery.last_error


def test_the_worker_sends_them(app):
    with receiving() as receiver:
        _, secret = endpoint_for(app, receiver.url)
        one_event(app)
        run_worker(app)

    assert len(receiver.verified(secret)) == 1


def test_an_endpoint_that_never_answers_is_tried_again(app, monkeypatch):
    monkeypatch.setattr(sending, "TIMEOUT", urllib3.Timeout(connect=1.0, read=0.2))
    with silent_address() as url:
        endpoint_for(app, f"{url}/hooks")
        one_event(app)
        send_due(app)

    [delivery] = stored_deliveries(app)
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("pending", 1, None)
    assert delivery.last_error == "The endpoint did not answer in time."
