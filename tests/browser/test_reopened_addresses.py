"""No dead ends in Chromium: a form's address reopened leads to its page with a warning in words,
and an unknown address is a page in words; both axe-clean and no wider than a 375 px phone
(``PORTAL_SCREENSHOTS`` saves them)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.web.errors import REOPENED
from tests.browser.support import Axe, Servers, Widths, log_in
from tests.support.team import make_merchant

pytestmark = pytest.mark.browser


def test_a_reopened_form_address_and_an_unknown_one_read_in_words(
        page: Page, servers: Servers, auth, csrf_app, axe: Axe) -> None:
    merchant = make_merchant(csrf_app, "Lotus Traders")
    log_in(page, auth.create("ops"))
    widths = Widths(page)
    widths.measure("reopened-links-address", f"/merchants/{merchant}/verification/links")
    expect(page).to_have_url(f"{servers.portal}/merchants/{merchant}/verification")
    expect(page.locator("p.flash--warning")).to_have_text(REOPENED)
    axe.check(page)
    widths.measure("error-404", "/merchants/no-such-page")
    expect(page.locator("h1")).to_have_text("Page not found")
    axe.check(page)
    assert widths.too_wide == {}
