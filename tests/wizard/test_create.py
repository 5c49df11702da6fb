"""Step 1: the id is stored before sending; a lost answer is retried with the same id only."""

from __future__ import annotations

from portal.core.models.merchant import CreateState
from portal.domain.onboarding import scenarios
from tests.support.browser import Browser
from tests.support.rows import stored
from tests.wizard.support import merchant_id_from, point_gateway_at, typed


def creates(sandbox) -> list:
    """The create requests the sandbox received."""
    return [r for r in sandbox.state.onboarding.received_requests()
            if r.method == "POST"]


def test_save_draft_stores_the_generated_id_and_sends_nothing(browser: Browser, app, sandbox):
    page = browser.get("/merchants/new")
    generated = page.soup.find(attrs={"name": "externalOnboardingId"})["value"]
    page = browser.submit(page, {"displayName": "Chai Point", "panNumber": "ABCCE1234F"},
                          action="draft")
    merchant_id = merchant_id_from(page)
    row = stored(app, merchant_id)
    assert row.external_onboarding_id == generated
    assert row.create_state == CreateState.DRAFT
    assert row.onboarding_id is None
    assert creates(sandbox) == []
    assert page.soup.find(attrs={"name": "externalOnboardingId"})["value"] == generated
    assert page.step_states()["create"] == "draft"


def test_a_typed_id_is_kept_and_a_taken_one_refused(browser: Browser, app):
    page = browser.submit(browser.get("/merchants/new"),
                          typed(scenarios.HAPPY, "create", externalOnboardingId="ops-typed-1"),
                          action="draft")
    assert stored(app, merchant_id_from(page)).external_onboarding_id == "ops-typed-1"
    page = browser.submit(browser.get("/merchants/new"),
                          typed(scenarios.HAPPY, "create", externalOnboardingId="ops-typed-1"))
    assert page.errors_for("externalOnboardingId") == [
        "Another merchant in the portal uses this id"]


def test_send_creates_the_record_and_step_one_becomes_read_only(browser: Browser, app, sandbox):
    page = browser.submit(browser.get("/merchants/new"), typed(scenarios.HAPPY, "create"))
    merchant_id = merchant_id_from(page)
    assert page.response.request.path.endswith("/steps/business")
    row = stored(app, merchant_id)
    assert row.onboarding_id.startswith("pg_onboard_")
    assert row.status == "INITIATED"
    page = browser.get(f"/merchants/{merchant_id}/steps/create")
    assert page.soup.select_one("form.step-form") is None
    assert row.onboarding_id in page.soup.select_one(".lock-reason").get_text()
    assert row.pan not in page.text()  # shown masked
    assert row.pan_masked in page.text()


def test_a_lost_answer_is_retried_with_the_same_id_and_never_resent_once_refused(
        browser: Browser, app, sandbox, lossy):
    point_gateway_at(app, lossy.url)  # the create lands, but its answer is lost
    page = browser.submit(browser.get("/merchants/new"), typed(scenarios.HAPPY, "create"))
    merchant_id = merchant_id_from(page)
    row = stored(app, merchant_id)
    assert row.create_state == CreateState.OUTCOME_UNKNOWN
    panel = page.soup.select_one(".outcome-unknown")
    assert "Outcome unknown" in panel.get_text()
    assert panel.find("button", string="Retry with the same id") is not None
    assert page.soup.select_one("form.step-form") is None  # the id can no longer change
    assert page.step_states()["create"] == "needs_attention"

    point_gateway_at(app, sandbox.url)
    response = browser.client.post(f"/merchants/{merchant_id}/steps/create/retry",
                                   follow_redirects=True)
    assert "already used" in response.get_data(as_text=True)
    after = stored(app, merchant_id)
    assert after.create_state == CreateState.NEEDS_RECONCILE
    assert after.external_onboarding_id == row.external_onboarding_id
    page = browser.get(f"/merchants/{merchant_id}/steps/create")
    assert "must be reconciled" in page.soup.select_one(".needs-reconcile").get_text()
    assert page.soup.find("button", string="Retry with the same id") is None

    sent = len(creates(sandbox))
    browser.client.post(f"/merchants/{merchant_id}/steps/create/retry")
    assert len(creates(sandbox)) == sent  # no loop: nothing more is sent
    assert [r.body.count(row.external_onboarding_id.encode()) for r in creates(sandbox)] \
        == [1, 1]


def test_a_create_that_never_landed_succeeds_on_retry_with_the_same_id(
        browser: Browser, app, sandbox, lossy):
    lossy.forward = False
    point_gateway_at(app, lossy.url)
    page = browser.submit(browser.get("/merchants/new"), typed(scenarios.HAPPY, "create"))
    merchant_id = merchant_id_from(page)
    first = stored(app, merchant_id)
    assert first.create_state == CreateState.OUTCOME_UNKNOWN
    assert creates(sandbox) == []

    point_gateway_at(app, sandbox.url)
    response = browser.client.post(f"/merchants/{merchant_id}/steps/create/retry",
                                   follow_redirects=True)
    assert response.request.path == f"/merchants/{merchant_id}/steps/business"
    created = stored(app, merchant_id)
    assert created.create_state == CreateState.CREATED
    assert created.onboarding_id
    [create] = creates(sandbox)
    assert first.external_onboarding_id.encode() in create.body


def test_an_unreachable_gateway_before_connecting_keeps_the_draft(browser, app, closed_port):
    point_gateway_at(app, closed_port)
    page = browser.submit(browser.get("/merchants/new"), typed(scenarios.HAPPY, "create"))
    row = stored(app, merchant_id_from(page))
    assert row.create_state == CreateState.DRAFT  # nothing was sent: safe to send again
    assert "could not be reached" in page.soup.select_one(".gateway-unavailable").get_text()
