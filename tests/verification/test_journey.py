"""The whole journey against the sandbox: steps 1-7, the hosted verification page, the review
on the sandbox's tick(), and the portal learning the outcome by webhook, sync or its pages."""

from __future__ import annotations

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.app.worker.sync import sync_once
from portal.core.clients import onboarding_client
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.status_change import StatusChange
from portal.domain.onboarding import scenarios
from portal.features.verification.words import OPS_NEXT
from portal.gateway.onboarding.vocabulary import OnboardingStatus
from tests.support.browser import Browser
from tests.support.rows import stored
from tests.verification.support import backend_of, complete_on_sandbox_page, frame_src, onboard
from tests.wizard.support import upload


def _timeline(app, merchant_id: int) -> list[tuple[str | None, str, str]]:
    with app.app_context():
        return [(c.from_status, c.to_status, c.source) for c in db.session.scalars(
            select(StatusChange).where(StatusChange.merchant_id == merchant_id)
            .order_by(StatusChange.id))]


def _verify(client, merchant_id: int) -> dict:
    """Open step 8, complete the embedded page like the merchant, then confirm like the JS."""
    response = client.get(f"/merchants/{merchant_id}/verification/session")
    complete_on_sandbox_page(frame_src(response.data))
    confirmed = client.post(f"/merchants/{merchant_id}/verification/confirm",
                            headers={"Accept": "application/json"})
    assert confirmed.status_code == 200
    return confirmed.json


def _status_page(client, merchant_id: int) -> BeautifulSoup:
    response = client.get(f"/merchants/{merchant_id}/status")
    assert response.status_code == 200
    return BeautifulSoup(response.data, "html.parser")


def test_happy_path_ends_approved_learnt_by_webhook(app, client, auth, sandbox, portal_server):
    auth.login("ops")
    merchant_id = onboard(app, scenarios.HAPPY)
    assert stored(app, merchant_id).status == "PENDING_VERIFICATION"

    answer = _verify(client, merchant_id)
    assert answer == {"confirmed": True, "status": "PENDING_REVIEW",
                      "message": "Confirmed by the gateway: Pending review "
                                 "(verified, under compliance review).",
                      "steps": {"TNC": True, "DIGILOCKER": True, "VKYC": True},
                      "next": OPS_NEXT[OnboardingStatus.PENDING_REVIEW]}

    backend_of(sandbox).tick()  # the review decides, then the webhooks go out to the portal
    merchant = stored(app, merchant_id)
    assert merchant.status == "APPROVED"
    assert merchant.checklist["vkyc"] == "COMPLETE"
    assert _timeline(app, merchant_id)[-2:] == [
        ("PENDING_VERIFICATION", "PENDING_REVIEW", "verification page"),
        ("PENDING_REVIEW", "APPROVED", "webhook")]
    assert {source for _f, _t, source in _timeline(app, merchant_id)} == {
        "step send", "verification page", "webhook"}
    deliveries = backend_of(sandbox).webhooks.deliveries()
    assert deliveries and {d.outcome for d in deliveries} == {"delivered"}

    soup = _status_page(client, merchant_id)
    assert soup.select_one(".onboarding-status")["data-status"] == "APPROVED"
    assert [td.get_text() for td in soup.select(".timeline td.source")][-2:] == [
        "Verification page", "Gateway webhook"]
    assert soup.select_one("[data-item='vkyc']").get_text() == "Complete"
    states = {li["data-step"]: li["data-state"] for li in soup.select(".stepper__step")}
    assert states["verification"] == states["status"] == "sent"


def test_rejected_is_learnt_by_the_sync(app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = onboard(app, scenarios.REVIEW_REJECTED)
    _verify(client, merchant_id)
    backend_of(sandbox).tick()  # no webhook URL configured: only the poll can tell
    assert stored(app, merchant_id).status == "PENDING_REVIEW"
    with app.app_context():
        report = sync_once(onboarding_client(current_settings()))
    assert (report.read, report.moved, report.failed) == (1, 1, 0)
    assert stored(app, merchant_id).status == "REJECTED"
    assert _timeline(app, merchant_id)[-1] == ("PENDING_REVIEW", "REJECTED", "poll")
    with app.app_context():  # final: the next pass does not read it again
        assert sync_once(onboarding_client(current_settings())).read == 0


def test_rfi_sends_ops_to_the_documents_step_and_ends_approved(
        app, client, auth, sandbox, portal_server):
    auth.login("ops")
    merchant_id = onboard(app, scenarios.REVIEW_RFI)
    _verify(client, merchant_id)
    backend_of(sandbox).tick()
    assert stored(app, merchant_id).status == "RFI"

    soup = _status_page(client, merchant_id)
    banner = soup.select_one(".rfi-banner")
    assert "Bank statement" in banner.get_text()
    assert banner.find("a")["href"] == f"/merchants/{merchant_id}/steps/documents"
    assert [li.get_text() for li in soup.select("ul.outstanding li")] == ["Bank statement"]
    assert soup.select_one("[data-step='status']")["data-state"] == "needs_attention"

    browser = Browser(client)
    page = browser.get(f"/merchants/{merchant_id}/steps/documents")
    assert page.soup.select_one("form.upload[data-slot='BANK_STATEMENT']") is not None
    page = upload(browser, page, "BANK_STATEMENT", scenarios.sample_pdf("BANK_STATEMENT"),
                  "statement.pdf")
    assert "Bank statement sent to the gateway." in page.text()
    assert stored(app, merchant_id).status == "PENDING_REVIEW"
    assert _timeline(app, merchant_id)[-1] == ("RFI", "PENDING_REVIEW", "step send")

    backend_of(sandbox).tick()  # the second review decides for good
    assert stored(app, merchant_id).status == "APPROVED"
    assert _timeline(app, merchant_id)[-1] == ("PENDING_REVIEW", "APPROVED", "webhook")
