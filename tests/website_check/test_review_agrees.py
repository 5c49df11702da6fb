"""The issue's "done when", both halves on one merchant: its loopback test website lacks a
refund page; the portal tells it before the verification link, and the sandbox's review, once
the merchant verified, raises that very RFI (it reads the same site itself)."""

from __future__ import annotations

from portal.core.config import SETTINGS_EXTENSION
from portal.domain.onboarding import scenarios
from portal.gateway.onboarding.vocabulary import OnboardingStatus
from tests.support.browser import Browser
from tests.support.rows import stored
from tests.support.servers import serve
from tests.support.websites import HOME, site
from tests.support.workers import run_worker
from tests.wizard.support import send_through_pages, typed, upload


def test_the_refund_gap_told_before_verification_is_the_rfi_the_review_raises(
        auth, client, app, sandbox, monkeypatch):
    auth.login("ops")
    browser = Browser(client)
    app.extensions[SETTINGS_EXTENSION] = app.extensions[SETTINGS_EXTENSION].with_changes(
        website_check_allow_loopback=True)
    monkeypatch.setattr(sandbox.state.config, "reviewWebsites", True)
    with serve(site({"/": ("200 OK", {}, HOME)})) as url:
        merchant = send_through_pages(browser)
        browser.submit(browser.get(f"/merchants/{merchant}/steps/business"),
                       typed(scenarios.HAPPY, "business", websiteUrl=url, tradeName="Chai Point"))
        for step in ("owners", "bank", "signatory"):
            browser.submit(browser.get(f"/merchants/{merchant}/steps/{step}"),
                           typed(scenarios.HAPPY, step))
        page = browser.get(f"/merchants/{merchant}/steps/documents")
        for slot in stored(app, merchant).documents_outstanding:
            page = upload(browser, page, slot, scenarios.sample_pdf(slot), "doc.pdf")
        browser.submit(browser.get(f"/merchants/{merchant}/steps/products"),
                       typed(scenarios.HAPPY, "products"))
        browser.submit(browser.get(f"/merchants/{merchant}"), action="",
                       selector=f"form[action='/merchants/{merchant}/website-check']")
        assert run_worker(app) >= 1
        verification = browser.get(f"/merchants/{merchant}/verification")
        told = verification.soup.select_one(".website-gaps").get_text(" ", strip=True)
        assert "The gateway will likely ask for: a refund policy page" in told

        onboarding_id = stored(app, merchant).onboarding_id
        sandbox.backend.complete_verification(onboarding_id)
        assert sandbox.backend.finish_review(onboarding_id) is OnboardingStatus.RFI
    assert sandbox.state.onboarding._get(onboarding_id).website_gaps == [
        "a refund policy page"]
