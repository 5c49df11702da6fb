"""A dormant merchant in Chromium at 1280 and 375 px with axe: a live merchant with no payment
for longer than DORMANT_AFTER_DAYS is on its owner's worklist, and the dashboard's count opens
the merchants list filtered to it (issue 38 item 7)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect

from portal.core import clock
from tests.browser.support import PHONE, Axe, log_in, screenshot
from tests.support.team import make_merchant

pytestmark = pytest.mark.browser
OWNER = "ops@example.com"


def test_a_dormant_merchant_is_on_its_owners_worklist_and_the_dashboard(page: Page, auth,
                                                                        csrf_app,
                                                                        axe: Axe) -> None:
    auth.create("ops", OWNER)
    make_merchant(csrf_app, "Quiet Traders", owner=OWNER, status="APPROVED",
                  created_at=clock.utcnow() - timedelta(days=40))
    log_in(page, OWNER)
    page.goto("/worklist")
    item = page.locator(".work-item", has_text="Quiet Traders")
    expect(item).to_contain_text("No payment since")
    for viewport in ({"width": 1280, "height": 800}, PHONE):
        page.set_viewport_size(viewport)
        axe.check(page)
    screenshot(page, "worklist-dormant")

    page.get_by_role("button", name="Sign out").click()
    log_in(page, auth.create("admin"), app=csrf_app)
    page.goto("/admin/")
    page.get_by_role("link", name="1 dormant merchant").click()
    expect(page.locator("table.merchants tbody tr")).to_have_count(1)
    expect(page.locator("table.merchants")).to_contain_text("Quiet Traders")
    axe.check(page)
