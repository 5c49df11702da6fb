"""The business step hides the operating address while "operates at its registered address" is
ticked, and shows it again, as typed, once unticked; axe-clean (``PORTAL_SCREENSHOTS`` saves
both states at 1280 and 375 px)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import Axe, Servers, log_in, screenshot

pytestmark = pytest.mark.browser


def test_the_operating_address_waits_for_the_box(page: Page, servers: Servers, sent_merchant,
                                                 axe: Axe) -> None:
    merchant = sent_merchant()
    log_in(page, "ops@example.com")
    page.goto(f"{merchant}/steps/business")
    box = page.locator("#address-isOperatingSameAsRegistered")
    block = page.locator("#address-businessOperatingAddress")
    expect(box).to_be_checked()
    expect(block).to_be_hidden()
    screenshot(page, "same-address-ticked")
    axe.check(page)
    box.uncheck()
    expect(block).to_be_visible()
    screenshot(page, "same-address-unticked")
