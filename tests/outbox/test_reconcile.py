"""A create whose answer was lost is linked to its record, never created twice (sandbox faults)."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.app.worker.sync import sync_once
from portal.core import clock
from portal.core.clients import onboarding_client
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.core.models.merchant import CreateState
from portal.core.models.webhook_event import WebhookEvent
from portal.domain.onboarding import scenarios
from portal.gateway.onboarding.client import OnboardingClient
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.support.browser import Browser, Page
from tests.support.rows import stored
from tests.support.settings import API_KEY, API_SECRET
from tests.wizard.support import merchant_id_from, typed


def creates(sandbox) -> int:
    """How many create requests reached the sandbox's records."""
    return sum(1 for r in sandbox.state.onboarding.received_requests()
               if r.method == "POST")


def record_of(sandbox, external_id: str) -> str:
    """The sandbox's onboardingId of the record created with ``external_id``."""
    records = sandbox.state.onboarding._records.values()
    return next(r.onboarding_id for r in records if r.external_id == external_id)


def reconcile_actions(app, merchant_id: int) -> list[tuple[str, str]]:
    """The merchant's reconciliation audit entries as (outcome, actor)."""
    with app.app_context():
        return [(e.outcome, e.actor_label) for e in db.session.scalars(
            select(AuditEvent).where(AuditEvent.action == "merchant.reconcile",
                                     AuditEvent.merchant_id == merchant_id)
            .order_by(AuditEvent.id))]


@pytest.fixture
def needs_reconcile(browser: Browser, app, sandbox) -> int:
    """A merchant whose create landed with its answer lost, then was refused on the retry."""
    sandbox.state.faults.set(Fault(FaultKind.LOST, operation="create_onboarding", times=1))
    page = browser.submit(browser.get("/merchants/new"), typed(scenarios.HAPPY, "create"))
    merchant_id = merchant_id_from(page)
    assert stored(app, merchant_id).create_state == CreateState.OUTCOME_UNKNOWN
    browser.client.post(f"/merchants/{merchant_id}/steps/create/retry")
    assert stored(app, merchant_id).create_state == CreateState.NEEDS_RECONCILE
    assert creates(sandbox) == 2  # the lost one (applied) and the refused retry
    return merchant_id


def reconcile(browser: Browser, merchant_id: int, onboarding_id: str) -> Page:
    """Post the needs-reconciliation panel's form."""
    response = browser.client.post(f"/merchants/{merchant_id}/reconcile",
                                   data={"onboardingId": onboarding_id}, follow_redirects=True)
    return Page(response, BeautifulSoup(response.data, "html.parser"))


def test_ops_link_the_right_record_and_the_onboarding_continues(browser, app, sandbox,
                                                                needs_reconcile):
    page = browser.get(f"/merchants/{needs_reconcile}/steps/create")
    assert page.soup.select_one(".needs-reconcile form.reconcile") is not None
    external_id = stored(app, needs_reconcile).external_onboarding_id
    onboarding_id = record_of(sandbox, external_id)
    page = reconcile(browser, needs_reconcile, onboarding_id)
    assert page.response.request.path == f"/merchants/{needs_reconcile}/steps/business"
    assert "Reconciled" in page.text()
    linked = stored(app, needs_reconcile)
    assert (linked.onboarding_id, linked.create_state, linked.status) == (
        onboarding_id, CreateState.CREATED, "INITIATED")
    assert creates(sandbox) == 2  # no third create: one record at the gateway
    assert reconcile_actions(app, needs_reconcile) == [("ok", "ops@example.com")]
    page = browser.submit(browser.get(f"/merchants/{needs_reconcile}/steps/business"),
                          typed(scenarios.HAPPY, "business"))
    assert stored(app, needs_reconcile).status == "IN_PROGRESS"


def test_a_record_of_another_merchant_is_refused_and_nothing_changes(browser, app, sandbox,
                                                                     needs_reconcile):
    other = OnboardingClient(sandbox.url, API_KEY, API_SECRET).create_onboarding(
        {"externalOnboardingId": "someone-else-1", "panNumber": scenarios.company_pan()})
    text = reconcile(browser, needs_reconcile, other.onboarding_id).text()
    assert "Not reconciled" in text
    assert "partnerOnboardingId 'someone-else-1'" in text
    unchanged = stored(app, needs_reconcile)
    assert (unchanged.onboarding_id, unchanged.create_state) == (None, CreateState.NEEDS_RECONCILE)
    assert reconcile_actions(app, needs_reconcile) == [("refused", "ops@example.com")]


@pytest.mark.parametrize("typed_id", ["pg_onboard_nosuchrecord", "../../status", ""])
def test_an_unknown_or_malformed_id_is_refused(browser, app, needs_reconcile, typed_id):
    assert "Not reconciled" in reconcile(browser, needs_reconcile, typed_id).text()
    assert stored(app, needs_reconcile).create_state == CreateState.NEEDS_RECONCILE


def test_a_webhook_naming_the_record_reconciles_it_at_the_next_sync(browser, app, sandbox,
                                                                    needs_reconcile):
    onboarding_id = record_of(sandbox, stored(app, needs_reconcile).external_onboarding_id)
    with app.app_context():
        for event_id, named in (("e-1", "pg_onboard_nosuchrecord"), ("e-2", onboarding_id)):
            db.session.add(WebhookEvent(dedup_key=f"id:{event_id}", event_name="IN_PROGRESS",
                                        onboarding_id=named, body="{}",
                                        received_at=clock.utcnow()))
        db.session.commit()
        report = sync_once(onboarding_client(current_settings()))
    assert "1 lost creates reconciled" in report.summary()
    linked = stored(app, needs_reconcile)
    assert (linked.onboarding_id, linked.create_state) == (onboarding_id, CreateState.CREATED)
    assert reconcile_actions(app, needs_reconcile) == [("ok", "webhook")]
    assert creates(sandbox) == 2
