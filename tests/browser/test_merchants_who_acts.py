"""The merchants list's "Who must act" column and filter in Chromium: the overdue merchant
first, each party in words, the filter kept; axe and no overflow at 1280 and 375 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import Axe, Console, Widths, audit, log_in, screenshot
from tests.merchants.support import OWNER, seed

pytestmark = pytest.mark.browser


def test_the_merchants_list_says_who_must_act(page: Page, auth, app, axe: Axe,
                                              console: Console) -> None:
    auth.create("ops", OWNER)
    seed(app)
    log_in(page, OWNER, app=app)
    page.goto("/merchants")
    rows = page.locator("table.merchants tbody tr")
    expect(rows.first.locator(".who-acts")).to_contain_text(
        "Waiting for the merchant · overdue since")
    audit(page, axe)
    widths = Widths(page)
    widths.measure("merchants-who-acts")
    screenshot(page, "merchants-who-acts")
    page.get_by_label("Who must act").select_option("us")
    page.get_by_role("button", name="Search").click()
    expect(rows).to_have_count(1)
    expect(rows.first.locator(".who-acts")).to_contain_text("Waiting for us · since")
    expect(page.get_by_label("Who must act")).to_have_value("us")
    audit(page, axe)
    screenshot(page, "merchants-waiting-for-us")
    assert widths.too_wide == {}
    assert console.errors == []
