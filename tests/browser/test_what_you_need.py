""""What you'll need" before step 1, in Chromium: choosing Partnership, Food & Beverages and
Cards lists the partnership deed, the authorisation letter rule, FSSAI and the website's pages;
the same with JavaScript off; and a GSTIN from another state is refused beside its field."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from portal.domain.onboarding import scenarios
from tests.browser.support import Axe, Servers, choose, log_in, screenshot
from tests.support.rows import stored

pytestmark = pytest.mark.browser

WEBSITE_PAGES = ("privacy policy", "refund policy", "terms and conditions",
                 "shipping (delivery) policy")


def expect_partnership_needs(page: Page) -> None:
    needs = page.locator(".requirements-list")
    expect(needs.locator("[data-requirement='partnership_deed']")).to_contain_text(
        "The partnership deed")
    expect(needs.locator("[data-requirement='authorisation_letter']")).to_contain_text(
        "if the authorised signatory is not one of the partners")
    expect(needs.locator("[data-requirement='fssai_licence']")).to_contain_text("FSSAI licence")
    for words in WEBSITE_PAGES:
        expect(needs).to_contain_text(f"A {words} page on the website")
    expect(needs.locator("[data-requirement='board_resolution']")).to_have_count(0)


def test_a_partnership_in_food_asking_for_cards_sees_its_needs_before_step_one(
        page: Page, auth, axe: Axe) -> None:
    log_in(page, auth.create("ops"))
    choose(page)
    expect_partnership_needs(page)
    axe.check(page)
    screenshot(page, "what-you-need")


def test_the_list_works_without_javascript(chromium: Browser, servers: Servers, auth) -> None:
    context = chromium.new_context(base_url=servers.portal, java_script_enabled=False)
    try:
        page = context.new_page()
        log_in(page, auth.create("ops"))
        choose(page)
        expect_partnership_needs(page)
    finally:
        context.close()


def test_a_gstin_from_another_state_is_refused_beside_its_field(page: Page, sent_merchant, auth,
                                                                app, axe: Axe) -> None:
    base = sent_merchant()
    log_in(page, auth.create("ops"))
    page.goto(f"{base}/steps/business")
    page.get_by_label("Scenario", exact=True).select_option(scenarios.HAPPY)
    page.get_by_role("button", name="Fill every step").click()
    page.wait_for_load_state()
    merchant_id = int(base.rsplit("/", 1)[1])
    page.locator("[name='gstNumber']").fill(
        scenarios.gstin_of(stored(app, merchant_id).pan, "29"))
    page.locator("form.step-form").get_by_role("button", name="Save and send").click()
    page.wait_for_load_state()
    field = page.locator(".field--invalid:has([name='gstNumber'])")
    expect(field).to_contain_text("registered in Karnataka")
    expect(field).to_contain_text("the registered address is in Maharashtra")
    expect(page.get_by_role("button", name="Send anyway")).to_be_visible()
    axe.check(page)
    screenshot(page, "gstin-other-state")


def test_the_summary_shows_what_the_merchant_needs_and_its_website_check(
        page: Page, sent_merchant, auth, axe: Axe) -> None:
    base = sent_merchant("business")
    log_in(page, auth.create("ops"))
    page.goto(base)
    checklist = page.locator(".requirements-checklist")
    expect(checklist.locator("[data-requirement='line_of_business']")).to_have_class(
        "requirement requirement--done")
    expect(page.get_by_role("button", name="Check the website")).to_be_visible()
    axe.check(page)
    screenshot(page, "merchant-summary-needs")
