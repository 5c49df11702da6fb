"""An individual merchant onboarded in Chromium against the sandbox's docs dialect, whose
checklist says the beneficial owners are NOT_APPLICABLE (docs/gateway-contract.md, "Checklist
words"): the stepper and step 3 say they are not needed, nothing is sent for them, and the
verification link is offered and used; at 1280 and 375 px, axe-clean."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.domain.onboarding import scenarios
from tests.browser.payment_steps import merchant_id_of
from tests.browser.support import Axe, Console, Servers, log_in, screenshot
from tests.support.chromium import click_through_verification
from tests.support.sandbox import speak

pytestmark = pytest.mark.browser

WIDTHS = (1280, 375)


def checked_at_both_widths(page: Page, axe: Axe, name: str) -> None:
    """axe finds nothing serious and the page is no wider than the viewport, at each width."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width, width
        axe.check(page)
    screenshot(page, name)


def send(page: Page) -> None:
    """Press the step form's "Save and send"."""
    page.locator("form.step-form").get_by_role("button", name="Save and send").click()
    page.wait_for_load_state()


def test_an_individual_reaches_verification_without_owners(page: Page, servers: Servers,
                                                           axe: Axe, auth,
                                                           console: Console) -> None:
    speak(servers.sandbox, "docs")
    log_in(page, auth.create("ops"))
    page.goto("/merchants/new")
    page.get_by_label("Scenario", exact=True).select_option(scenarios.INDIVIDUAL)
    page.get_by_role("button", name="Fill every step").click()
    page.wait_for_load_state()
    send(page)  # step 1; on to business details, filled already
    base = f"/merchants/{merchant_id_of(page)}"
    page.goto(f"{base}/steps/business")
    expect(page.locator("[name='entityType']")).to_have_value("INDIVIDUAL")
    send(page)

    owners = page.locator(".stepper__step[data-step='owners']")
    expect(owners).to_have_attribute("data-state", "not_needed")
    expect(owners.locator(".stepper__state")).to_have_text("Not needed for this merchant")
    owners.get_by_role("link").click()
    page.wait_for_load_state()
    notice = page.locator(".not-needed")
    expect(notice).to_contain_text("marks this step as not applicable to this merchant")
    expect(page.locator("form.step-form")).to_be_hidden()  # behind "all the same"
    expect(page.get_by_text("Send beneficial owners all the same")).to_be_visible()
    checked_at_both_widths(page, axe, "individual-owners-not-needed")
    notice.get_by_role("link", name="step 4, bank details").click()
    page.wait_for_load_state()

    for step in ("bank", "signatory", "products"):
        page.goto(f"{base}/steps/{step}")
        send(page)
        expect(page.locator(f".stepper__step[data-step='{step}']")).to_have_attribute(
            "data-state", "sent")
    page.goto(f"{base}/steps/documents")
    expect(page.locator(".nothing-outstanding")).to_be_visible()

    page.goto(f"{base}/verification")
    expect(page.locator(".missing-items")).to_have_count(0)
    checked_at_both_widths(page, axe, "individual-verification")
    page.get_by_role("button", name="Get verification link").click()
    click_through_verification(page.frame_locator("#verification-frame"))
    expect(page.locator(".verification-result")).to_have_attribute("data-state", "confirmed")
    expect(page.locator(".verification-result")).to_contain_text("Pending review")

    page.goto(f"{base}/status")
    expect(page.locator(".checklist [data-item='beneficialOwners']")).to_have_text(
        "Not needed for this merchant")
    checked_at_both_widths(page, axe, "individual-status")
    page.goto(base)  # the summary's stepper and checklist
    expect(page.locator(".stepper__step[data-step='owners']")).to_have_attribute(
        "data-state", "not_needed")
    checked_at_both_widths(page, axe, "individual-summary")
    sent = [request.raw_path for request in servers.onboarding.received_requests()]
    assert not any("beneficial-owner" in path for path in sent)  # nothing sent for owners
    assert console.csp_violations == [] and console.errors == []
