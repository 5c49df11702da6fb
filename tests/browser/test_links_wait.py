"""The merchant's link waits for the steps, in Chromium: with steps 5-7 not sent, the verification
page says what is missing in words beside disabled "Email the merchant" and "Create a link to
copy" buttons; axe-clean and no wider than a 375 px phone (``PORTAL_SCREENSHOTS`` saves it)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import Axe, Servers, Widths, log_in
from tests.verification.support import onboard

pytestmark = pytest.mark.browser


def test_the_merchants_link_waits_for_the_steps(page: Page, servers: Servers, auth, csrf_app,
                                                axe: Axe) -> None:
    merchant_id = onboard(csrf_app, until="bank")
    log_in(page, auth.create("ops"))
    widths = Widths(page)
    widths.measure("links-wait", f"/merchants/{merchant_id}/verification")
    for name in ("Email the merchant", "Create a link to copy"):
        expect(page.get_by_role("button", name=name)).to_be_disabled()
    expect(page.locator("#links-wait")).to_contain_text("Products (step 7)")
    axe.check(page)
    assert widths.too_wide == {}
