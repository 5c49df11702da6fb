"""The website check from the merchant's summary to the verification page: queued by a button,
run by the worker against a real page on loopback, its result shown on the summary (ticking
the requirements it found) and, before the verification link, what the gateway will likely
ask for."""

from __future__ import annotations

from portal.core.config import SETTINGS_EXTENSION
from portal.domain.onboarding import scenarios
from tests.support.browser import Browser, flatten
from tests.support.servers import serve
from tests.support.team import audited
from tests.support.websites import HOME, site
from tests.support.workers import run_worker


def test_a_website_without_a_refund_page_is_told_before_verification(auth, client, app):
    auth.login("ops")
    browser = Browser(client)
    app.extensions[SETTINGS_EXTENSION] = app.extensions[SETTINGS_EXTENSION].with_changes(
        website_check_allow_loopback=True)
    page = browser.get("/merchants/new?need-products=DOMESTIC_CARDS_UPI_AND_INB")
    page = browser.submit(page, flatten(scenarios.form_data(scenarios.HAPPY, "create")))
    merchant = page.response.request.path.split("/")[2]
    with serve(site({"/": ("200 OK", {}, HOME)})) as url:
        business = flatten(scenarios.form_data(scenarios.HAPPY, "business")) | {
            "websiteUrl": url, "tradeName": "Chai Point"}
        browser.submit(browser.get(f"/merchants/{merchant}/steps/business"), business,
                       action="draft")
        summary = browser.get(f"/merchants/{merchant}")
        assert "Not checked yet" in summary.text()
        summary = browser.submit(summary, action="",
                                 selector=f"form[action='/merchants/{merchant}/website-check']")
        assert "website check is queued" in summary.text()
        assert run_worker(app) >= 1
    summary = browser.get(f"/merchants/{merchant}")
    found = {li["data-found"]: li.get_text(" ", strip=True)
             for li in summary.soup.select(".website-found li")}
    assert found["refund"] == "○ Refund policy: not found"
    assert found["privacy"] == f"✓ Privacy policy: {url}/privacy"
    ticked = {li["data-requirement"]: "requirement--done" in li["class"]
              for li in summary.soup.select(".requirements-checklist li")}
    assert ticked["website_privacy"] and ticked["website_prices"] and ticked["website_name"]
    assert not ticked["website_refund"]
    verification = browser.get(f"/merchants/{merchant}/verification")
    gaps = verification.soup.select_one(".website-gaps").get_text(" ", strip=True)
    assert "The gateway will likely ask for: a refund policy page" in gaps
    assert audited(app, "merchant.website_check")[0].merchant_id == int(merchant)
