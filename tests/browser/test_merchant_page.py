"""The sub-merchant's own verification page in Chromium: headed with the partner's name, in the
merchant's words from the first sentence to the outcome, nothing serious for axe."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.core.config import Settings
from tests.browser.support import Axe, Servers, screenshot
from tests.support.chromium import allow_camera, click_through_verification
from tests.verification.support import merchant_link, onboard

pytestmark = pytest.mark.browser

PARTNER = "Acme Payments"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The browser tests' settings with the partner's name set."""
    return settings.with_changes(partner_name=PARTNER)


def test_the_merchant_reads_the_partners_name_and_plain_words(page: Page, servers: Servers,
                                                              csrf_app, axe: Axe) -> None:
    path = merchant_link(csrf_app, onboard(csrf_app))
    page.goto(path)
    expect(page.locator(".partner-header__name")).to_have_text(PARTNER)
    allow_camera(page)
    expect(page.locator(".verification-intro")).to_contain_text(
        f"{PARTNER} is setting up card payments for your business")
    expect(page.locator("main")).not_to_contain_text("gateway")
    page.frame_locator("#verification-frame").get_by_role("heading",
                                                          name="Merchant verification").wait_for()
    axe.check(page)
    screenshot(page, "merchant-verification")
    click_through_verification(page.frame_locator("#verification-frame"))
    result = page.locator(".verification-result[data-state='confirmed']")
    expect(result).to_have_text("Thank you: your verification is complete.")
    expect(page.locator(".verification-next")).to_contain_text(
        f"{PARTNER} now checks your details")
    expect(page.locator("main")).not_to_contain_text("gateway")
    axe.check(page)
    screenshot(page, "merchant-verification-done")
