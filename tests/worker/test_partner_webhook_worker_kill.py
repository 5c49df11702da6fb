"""The issue's "done when" for the webhooks out: a ``flask worker`` killed with SIGKILL while it
posts an event (the receiver has the request, the worker never hears the answer) leaves the
delivery ``sending``; a second worker takes it over once the lease runs out and delivers it
with the same webhook-id. The receiver sees the event at least once, verifies both tries with
the Standard Webhooks library and keeps it once (deduped by webhook-id)."""

from __future__ import annotations

import signal
from contextlib import ExitStack

import pytest

from portal.core.config import Settings
from tests.jobs.support import wait_for
from tests.support.partner_webhooks import (
    Receiver,
    endpoint_for,
    move,
    receiving,
    stored_deliveries,
    stored_events,
)
from tests.support.team import make_merchant
from tests.support.workers import worker_process

pytestmark = pytest.mark.postgres


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Loopback allowed, so the workers reach the test's receiver."""
    return settings.with_changes(website_check_allow_loopback=True)


def delivery_state(app) -> str:
    [delivery] = stored_deliveries(app)
    return delivery.state


def test_an_event_whose_worker_dies_mid_send_is_delivered_later_with_the_same_id(
        app, settings, tmp_path):
    with receiving(Receiver(hold=True)) as receiver, ExitStack() as stack:
        _, secret = endpoint_for(app, receiver.url)
        move(app, make_merchant(app, "Lotus Traders", status="PENDING_REVIEW"), "APPROVED")
        [event] = stored_events(app)
        first = stack.enter_context(worker_process(settings, tmp_path / "first.log"))
        assert receiver.reached.wait(60), "the first worker never posted the event"
        first.send_signal(signal.SIGKILL)
        assert first.wait(timeout=30) == -signal.SIGKILL
        receiver.hold = False
        receiver.release.set()  # the receiver keeps what it got; its answer reaches nobody
        assert delivery_state(app) == "sending"

        stack.enter_context(worker_process(settings, tmp_path / "second.log"))
        wait_for(lambda: delivery_state(app) == "delivered", "the second worker's delivery")

    assert [r.headers["webhook-id"] for r in receiver.received] == [event.event_id] * 2
    assert len(receiver.verified(secret)) == 2
    assert receiver.unique_ids() == [event.event_id]  # what a deduping receiver keeps
    [delivery] = stored_deliveries(app)
    assert (delivery.attempts, delivery.last_status) == (2, 200)
