"""Work finds its owner, in Chromium: a new ops user lands on an empty worklist that offers to
start or take a merchant, starts one, finds it under "Mine" on the merchants list as theirs, and
takes one nobody owns from the "Nobody owns it" filter. Every page axe-clean and no wider than a
375 px phone; ``PORTAL_SCREENSHOTS`` saves each at 1280 and 375 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.domain.onboarding import scenarios
from tests.browser.support import PHONE, Axe, Servers, Widths, log_in
from tests.support.team import make_merchant

pytestmark = pytest.mark.browser

ASHA = "asha@example.com"


def test_a_new_ops_user_starts_a_merchant_and_takes_another(page: Page, servers: Servers, auth,
                                                            csrf_app, axe: Axe) -> None:
    auth.create("ops", ASHA)
    make_merchant(csrf_app, "Cedar Crafts of Kanchipuram and Madurai Private Limited")
    widths = Widths(page)
    log_in(page, ASHA)
    expect(page.locator(".way-on")).to_be_visible()
    widths.measure("owners-empty-landing")
    axe.check(page)

    page.get_by_role("link", name="Start a merchant").click()
    create = scenarios.form_data(scenarios.HAPPY, "create")
    page.locator("[name=displayName]").fill("Lotus Traders")
    page.locator("[name=panNumber]").fill(create["panNumber"])
    page.get_by_role("button", name="Save and send").click()
    page.wait_for_url("**/steps/business")

    page.goto("/merchants?owner=mine")
    rows = page.locator("table.merchants tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.locator("td[data-label=Owner]")).to_have_text("You")
    widths.measure("owners-merchants-mine")
    axe.check(page)

    page.goto("/worklist")
    page.get_by_role("link", name="Take a merchant").click()
    expect(page.get_by_label("Owner")).to_have_value("nobody")
    expect(rows.locator("td[data-label=Owner]")).to_have_text("Nobody")
    widths.measure("owners-merchants-nobody")
    axe.check(page)
    rows.first.get_by_role("link").click()
    page.get_by_role("button", name="Take it").click()
    expect(page.locator("#owner")).to_contain_text("(you)")
    page.set_viewport_size(PHONE)
    assert widths.too_wide == {}
