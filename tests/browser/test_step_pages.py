"""The wizard's step pages in Chromium: every mistake at once under one summary whose links lead
to the fields, and the sandbox scenario kept from step to step; at 1280 and 375 px, axe-clean."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.domain.onboarding import scenarios
from tests.browser.support import Axe, Servers, fill, log_in, screenshot, send

pytestmark = pytest.mark.browser

WIDTHS = (1280, 375)


def fits(page: Page) -> None:
    """The page is no wider than the viewport at each width."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width, width


def test_the_error_summary_lists_every_mistake_and_leads_to_each(
        page: Page, servers: Servers, axe: Axe, sent_merchant, auth) -> None:
    base = sent_merchant()
    log_in(page, auth.create("ops"))
    page.goto(f"{base}/steps/owners")
    fill(page)
    page.locator("[name='owners-0-pan']").fill("ABCCE1234F")  # a company's PAN
    page.locator("[name='owners-0-percentageOwnership']").fill("75")  # 75 + 40 = 115 %
    send(page)
    summary = page.locator(".error-summary")
    expect(summary.get_by_role("heading", name="Some fields need correcting")).to_be_visible()
    expect(page.get_by_text("Some fields need correcting")).to_have_count(1)
    links = summary.locator(".error-summary__list a")
    expect(links).to_have_count(2)
    expect(links.nth(1)).to_contain_text("The owners' percentages add up to 115")
    axe.check(page)
    fits(page)
    screenshot(page, "error-summary")

    links.first.click()
    assert page.url.endswith("#owners-0-pan")
    expect(page.locator("#owners-0-pan")).to_be_in_viewport()
    expect(page.locator("[name='owners-0-pan']")).to_have_value("ABCCE1234F")  # kept as typed


def test_the_scenario_chosen_on_step_one_is_kept_on_the_next_steps(
        page: Page, servers: Servers, axe: Axe, auth) -> None:
    log_in(page, auth.create("ops"))
    page.goto("/merchants/new")
    fill(page, scenarios.REVIEW_RFI)
    picker = page.get_by_label("Scenario", exact=True)
    expect(picker).to_have_value(scenarios.REVIEW_RFI)
    expect(page.locator(".scenario-picker")).to_contain_text(
        "This merchant's scenario: Review asks for more information")
    send(page)  # step 1 sent: on to business details, filled already
    expect(page.locator("[name='registeredName']")).to_have_value(
        "RFI Sandbox Traders Private Limited")
    expect(picker).to_have_value(scenarios.REVIEW_RFI)
    axe.check(page)
    fits(page)
    page.locator(".scenario-picker").scroll_into_view_if_needed()
    screenshot(page, "scenario-picker")
