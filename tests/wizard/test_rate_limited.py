"""A 429 is "unavailable", never a refusal (docs/gateway-contract.md, "Rate limits"): a step's
send is queued no earlier than its Retry-After, the outbox reschedules by it, the create says
"busy", and a bulk row waits as asked and sends again instead of failing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import select

from portal.core.clients import CLIENT_EXTENSION
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.core.models.merchant import CreateState
from portal.core.models.outbox import OutboxState
from portal.domain.audit.service import Actor
from portal.domain.onboarding import scenarios
from portal.domain.onboarding.outbox.drain import drain
from portal.features.bulk.onboard import RowState, onboard_row
from portal.features.bulk.validation import check_file
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.retry import NO_RETRY, RetryPolicy
from tests.bulk.support import EXAMPLE
from tests.outbox.support import items
from tests.support.gateway_front import GatewayFront, gateway_front
from tests.support.rows import stored
from tests.support.settings import API_KEY, API_SECRET
from tests.support.sleeps import SleepRecorder
from tests.wizard.support import point_gateway_at, typed

BUSY = {"gid": "gl-429", "reasonCode": "TOO_MANY_REQUESTS", "errors": {
    "displayMessage": "Too many requests"}}
BUSINESS = "/business-details"
#: Who the bulk rows here are imported by.
IMPORTER = Actor("admin@example.com")


@pytest.fixture
def front(app, sandbox) -> Iterator[GatewayFront]:
    with gateway_front(sandbox.url) as running:
        yield running


@pytest.fixture
def sleeper() -> SleepRecorder:
    return SleepRecorder()


def client_for(front: GatewayFront, sleeper: SleepRecorder,
               retry: RetryPolicy = RetryPolicy()) -> OnboardingClient:
    """A client through the front whose retries never really sleep."""
    return OnboardingClient(front.url, API_KEY, API_SECRET, retry=retry, sleep=sleeper)


def through(app, front: GatewayFront, sleeper: SleepRecorder) -> OnboardingClient:
    """Point the portal's pages at the front, with a client that never really sleeps."""
    point_gateway_at(app, front.url)
    with app.app_context():
        client = client_for(front, sleeper)
        app.extensions[CLIENT_EXTENSION] = (current_settings(), client)
    return client


def busy(front: GatewayFront, method: str, suffix: str, retry_after: str | None,
         times: int | None = 1) -> None:
    front.reply(method, suffix, 429, BUSY, times=times,
                headers={"Retry-After": retry_after} if retry_after is not None else None)


def sends(front: GatewayFront, suffix: str) -> int:
    return sum(1 for line in front.received if line.split("?")[0].endswith(suffix))


def test_a_step_answered_429_is_queued_no_earlier_than_its_retry_after(
        portal_clock, browser, app, new_merchant, front, sleeper):
    client = through(app, front, sleeper)
    busy(front, "PUT", BUSINESS, "120", times=3)  # the send and its two retries
    page = browser.submit(browser.get(f"/merchants/{new_merchant}/steps/business"),
                          typed(scenarios.HAPPY, "business"))
    assert page.step_states()["business"] == "queued"
    banner = page.soup.select_one(".step-queued").get_text(" ")
    assert "busy and asked the portal to slow down" in banner
    assert "2026-01-05 09:02:00 UTC" in banner  # the portal clock + Retry-After, not + 30 s
    assert "refused" not in page.text().lower()
    with app.app_context():
        [outcome] = db.session.scalars(select(AuditEvent.outcome).where(
            AuditEvent.action == "step.send.business"))
    assert outcome == "unavailable"

    portal_clock.advance(119)
    with app.app_context():
        assert drain(client).sent == 0
    assert sends(front, BUSINESS) == 3
    portal_clock.advance(1)
    with app.app_context():
        assert drain(client).sent == 1
    assert stored(app, new_merchant).status == "IN_PROGRESS"


def test_the_drain_reschedules_a_429_by_its_retry_after(portal_clock, browser, app,
                                                        new_merchant, front, sleeper):
    client = through(app, front, sleeper)
    busy(front, "PUT", BUSINESS, None, times=3)
    browser.submit(browser.get(f"/merchants/{new_merchant}/steps/business"),
                   typed(scenarios.HAPPY, "business"))
    [item] = items(app)
    assert item.next_attempt_at == portal_clock.now() + timedelta(seconds=30)  # none named
    portal_clock.advance(30)
    busy(front, "PUT", BUSINESS, "600", times=3)
    with app.app_context():
        assert drain(client).rescheduled == 1
    [item] = items(app)
    assert (item.state, item.attempts) == (OutboxState.PENDING, 2)
    assert item.next_attempt_at == portal_clock.now() + timedelta(seconds=600)  # not 60 s
    assert "slow down" in item.last_error and "refused" not in item.last_error


def test_a_create_answered_429_is_busy_not_refused_and_nothing_was_created(
        browser, app, front, sleeper):
    through(app, front, sleeper)
    busy(front, "POST", "/onboard", "45")
    page = browser.submit(browser.get("/merchants/new"), typed(scenarios.HAPPY, "create"))
    merchant_id = int(page.response.request.path.split("/")[2])
    assert stored(app, merchant_id).create_state == CreateState.DRAFT
    text = page.text()
    assert "busy and asked the portal to slow down" in text and "retry in 45 seconds" in text
    assert "refused" not in text.lower()


def example_row():
    """The example file's first row, as the import job runs it (no documents)."""
    return check_file(EXAMPLE.read_bytes(), None).valid_rows()[0]


def test_a_bulk_row_answered_429_waits_as_asked_and_goes_on(app, front, sleeper, sandbox):
    busy(front, "POST", "/onboard", "7")  # a POST is never retried by the transport
    busy(front, "PUT", BUSINESS, "5")
    paused = SleepRecorder()
    with app.app_context():
        outcome = onboard_row(client_for(front, sleeper, NO_RETRY), current_settings(),
                              example_row(), None, IMPORTER, pause=paused)
    assert outcome.state is RowState.AWAITING_DOCUMENTS, outcome.reason  # none in the row
    assert paused.delays == [7.0, 5.0]
    assert sends(front, "/onboard") == 2 and sends(front, BUSINESS) == 2
    assert [r.method for r in sandbox.backend.received_requests()].count("POST") == 1
    assert [i.state for i in items(app)] == [OutboxState.SUPERSEDED]  # never sent twice


def test_a_bulk_row_leaves_a_long_retry_after_to_the_outbox(portal_clock, app, front, sleeper):
    busy(front, "PUT", BUSINESS, "3600")
    paused = SleepRecorder()
    with app.app_context():
        outcome = onboard_row(client_for(front, sleeper, NO_RETRY), current_settings(),
                              example_row(), None, IMPORTER, pause=paused)
    assert paused.delays == []  # an hour is not waited inside a job's lease
    assert outcome.state is RowState.FAILED
    assert "busy and asked the portal to slow down" in outcome.reason
    assert "2026-01-05 10:00:00 UTC" in outcome.reason
    [item] = items(app)
    assert (item.state, item.next_attempt_at) == (
        OutboxState.PENDING, portal_clock.now() + timedelta(hours=1))
