"""The notices of life after go-live on the notices page in Chromium: a product blocked by a
pendency, then unblocked once it is resolved; axe at 1280 and 375 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import Axe, Console, audit, log_in, screenshot
from tests.support.product_events import CARDS, accepted, ask_for, deliver, pendency
from tests.support.team import make_merchant

pytestmark = pytest.mark.browser
OWNER = "owner@example.com"


def test_a_product_blocked_then_unblocked_reads_well(page: Page, auth, app, axe: Axe,
                                                     console: Console) -> None:
    auth.create("ops", OWNER)
    merchant = make_merchant(app, "Lotus Traders", owner=OWNER, status="APPROVED")
    ask_for(app, merchant)
    deliver(app, accepted("pg_onboard_lotus_traders", CARDS, "e1"))
    deliver(app, pendency("pg_onboard_lotus_traders", "e2", cards="true"))
    deliver(app, pendency("pg_onboard_lotus_traders", "e3", status="RESOLVED",
                          at="1767700000000"))
    log_in(page, OWNER, app=app)
    page.goto("/notices")
    notices = page.locator(".notice")
    expect(notices).to_have_count(3)
    expect(notices.nth(0)).to_contain_text("a product unblocked")
    expect(notices.nth(1)).to_contain_text("It blocks Lotus Traders's approval for cards")
    audit(page, axe)
    screenshot(page, "notices-product-blocked")
    assert console.errors == []
