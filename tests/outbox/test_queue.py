"""Steps saved while the gateway fails are queued, then sent once by the drain (sandbox faults)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from portal.app.worker.sync import sync_once
from portal.core.clients import onboarding_client
from portal.core.config import current_settings
from portal.core.models.outbox import OutboxState
from portal.domain.onboarding import scenarios
from portal.domain.onboarding.outbox.queue import FIRST_DELAY, MAX_DELAY, backoff
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.outbox.support import items, run_drain, sent_to_sandbox
from tests.support.browser import Browser, Page
from tests.support.rows import stored
from tests.support.workers import run_worker
from tests.wizard.support import typed

BUSINESS = "/business-details"


def business_down(sandbox) -> None:
    """Every business-details PUT answers 503 until the faults are cleared."""
    sandbox.state.faults.set(Fault(FaultKind.ERROR, operation="update_business_details"))


def send_business(browser: Browser, merchant_id: int, **changes: str) -> Page:
    """Save and send the business step with the happy scenario's data (some fields changed)."""
    page = browser.get(f"/merchants/{merchant_id}/steps/business")
    return browser.submit(page, typed(scenarios.HAPPY, "business", **changes))


@pytest.mark.parametrize(("failures", "delay"), [
    (1, FIRST_DELAY), (2, FIRST_DELAY * 2), (3, FIRST_DELAY * 4), (7, FIRST_DELAY * 64),
    (8, MAX_DELAY), (50, MAX_DELAY)])
def test_backoff_doubles_up_to_a_cap(failures, delay):
    assert backoff(failures) == delay


def test_a_step_sent_while_the_gateway_fails_is_queued_and_drained_exactly_once(
        portal_clock, browser, app, new_merchant, sandbox):
    business_down(sandbox)
    page = send_business(browser, new_merchant)
    assert page.response.request.path.endswith("/steps/business")  # stays, showing the queue
    assert page.step_states()["business"] == "queued"
    banner = page.soup.select_one(".step-queued")
    assert "sends it by itself" in banner.get_text()
    assert "2026-01-05 09:00:30 UTC" in banner.get_text()  # the portal clock + 30 s
    assert page.soup.find(attrs={"name": "registeredName"})["value"] == \
        "Sandbox Traders Private Limited"  # the draft is kept
    assert sandbox.state.faults.count() == 3  # the send's own retries, then queued
    assert sent_to_sandbox(sandbox, BUSINESS) == []

    assert run_drain(app).sent == 0  # not due yet
    sandbox.state.faults.clear()
    portal_clock.advance(30)
    assert run_drain(app).sent == 1
    assert len(sent_to_sandbox(sandbox, BUSINESS)) == 1
    portal_clock.advance(1200)  # inside the 30-minute session
    assert run_drain(app).sent == 0
    assert len(sent_to_sandbox(sandbox, BUSINESS)) == 1
    [item] = items(app)
    assert item.state == OutboxState.SENT
    assert stored(app, new_merchant).status == "IN_PROGRESS"  # the answer stored as a send
    page = browser.get(f"/merchants/{new_merchant}/steps/business")
    assert page.step_states()["business"] == "sent"
    assert page.soup.select_one(".step-queued") is None


def test_the_worker_pass_alone_drains_the_outbox_never_the_sync(portal_clock, browser, app,
                                                                 new_merchant, sandbox):
    business_down(sandbox)
    send_business(browser, new_merchant)
    sandbox.state.faults.clear()
    portal_clock.advance(30)
    with app.app_context():
        sync_once(onboarding_client(current_settings()))
    assert sent_to_sandbox(sandbox, BUSINESS) == []
    assert [item.state for item in items(app)] == [OutboxState.PENDING]
    run_worker(app)
    assert len(sent_to_sandbox(sandbox, BUSINESS)) == 1
    assert [item.state for item in items(app)] == [OutboxState.SENT]


def test_a_drain_while_the_gateway_still_fails_reschedules_with_backoff(
        portal_clock, browser, app, new_merchant, sandbox):
    business_down(sandbox)
    send_business(browser, new_merchant)
    start = portal_clock.now()
    portal_clock.advance(30)
    assert run_drain(app).rescheduled == 1
    [item] = items(app)
    assert (item.state, item.attempts) == (OutboxState.PENDING, 2)
    assert item.next_attempt_at == start + timedelta(seconds=30 + 60)
    assert "could not be reached" in item.last_error or "failed" in item.last_error

    hits = sandbox.state.faults.count()
    portal_clock.advance(59)
    assert run_drain(app).rescheduled == 0
    assert sandbox.state.faults.count() == hits  # nothing was sent before it was due
    portal_clock.advance(1)
    assert run_drain(app).rescheduled == 1
    [item] = items(app)
    assert item.attempts == 3
    assert item.next_attempt_at == start + timedelta(seconds=30 + 60 + 120)
    page = browser.get(f"/merchants/{new_merchant}/steps/business")
    assert page.step_states()["business"] == "queued"
    assert "3 failed attempts" in page.soup.select_one(".step-queued").get_text()
    assert sent_to_sandbox(sandbox, BUSINESS) == []


def test_a_newer_draft_supersedes_the_queued_send(portal_clock, browser, app, new_merchant,
                                                  sandbox):
    business_down(sandbox)
    send_business(browser, new_merchant, registeredName="Old Name Private Limited")
    page = browser.get(f"/merchants/{new_merchant}/steps/business")
    page = browser.submit(page, {"registeredName": "New Name Private Limited"}, action="draft")
    assert page.step_states()["business"] == "draft"
    sandbox.state.faults.clear()
    portal_clock.advance(1200)  # inside the 30-minute session
    assert run_drain(app).sent == 0
    assert [i.state for i in items(app)] == [OutboxState.SUPERSEDED]
    assert sent_to_sandbox(sandbox, BUSINESS) == []  # the stale data never went out


def test_a_newer_send_supersedes_the_queued_one_and_only_it_is_sent(
        portal_clock, browser, app, new_merchant, sandbox):
    business_down(sandbox)
    send_business(browser, new_merchant, registeredName="Old Name Private Limited")
    send_business(browser, new_merchant, registeredName="New Name Private Limited")
    assert [i.state for i in items(app)] == [OutboxState.SUPERSEDED, OutboxState.PENDING]
    sandbox.state.faults.clear()
    portal_clock.advance(30)
    report = run_drain(app)
    assert (report.sent, report.superseded) == (1, 0)
    [body] = sent_to_sandbox(sandbox, BUSINESS)
    assert b"New Name Private Limited" in body
    assert stored(app, new_merchant).legal_name == "New Name Private Limited"


def test_send_now_sends_the_queued_step_and_the_drain_does_not_repeat_it(
        portal_clock, browser, app, new_merchant, sandbox):
    business_down(sandbox)
    send_business(browser, new_merchant)
    sandbox.state.faults.clear()
    response = browser.client.post(f"/merchants/{new_merchant}/steps/business/retry",
                                   follow_redirects=True)
    assert response.request.path.endswith("/steps/owners")
    portal_clock.advance(1200)  # inside the 30-minute session
    assert run_drain(app).sent == 0
    assert len(sent_to_sandbox(sandbox, BUSINESS)) == 1


def test_a_refusal_during_the_drain_needs_attention_with_the_field_errors(
        portal_clock, browser, app, new_merchant, sandbox):
    sandbox.state.faults.set(Fault(FaultKind.ERROR, operation="add_beneficial_owners"))
    page = browser.get(f"/merchants/{new_merchant}/steps/owners")
    page = browser.submit(page, typed(scenarios.HAPPY, "owners", **{"owners-0-pan": "ABCPE9999F"}))
    assert page.step_states()["owners"] == "queued"
    sandbox.state.faults.clear()
    portal_clock.advance(30)
    assert run_drain(app).failed == 1
    portal_clock.advance(1200)  # inside the 30-minute session
    assert run_drain(app).failed == 0  # a refusal is not retried
    assert len(sent_to_sandbox(sandbox, "/beneficial-owner")) == 1
    [item] = items(app)
    assert item.state == OutboxState.FAILED
    page = browser.get(f"/merchants/{new_merchant}/steps/owners")
    assert page.step_states()["owners"] == "needs_attention"
    assert page.errors_for("owners-0-pan") == ["PAN does not exist"]


def test_the_create_is_never_queued(browser, app, sandbox):
    sandbox.state.faults.set(Fault(FaultKind.ERROR, operation="create_onboarding"))
    page = browser.submit(browser.get("/merchants/new"), typed(scenarios.HAPPY, "create"))
    assert page.soup.select_one(".outcome-unknown") is not None  # its own flow
    assert items(app) == []
