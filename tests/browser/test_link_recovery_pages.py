"""The merchant's pages that are not the video call, in headless Chromium with axe: an expired
link asks for and gets a new one; a finished merchant's link says what happens next; the
partner's branding as an admin sets it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models import Merchant
from tests.browser.support import Axe, Servers, log_in, screenshot
from tests.support.accounts import AuthActions
from tests.support.mail import link_in, mail_sink, mailing
from tests.support.merchant_pages import tiny_png
from tests.verification.support import merchant_link, onboard

__all__ = ["mail_sink"]
pytestmark = pytest.mark.browser
DAY = 24 * 3600


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The browser tests' settings, mailing to the loopback sink."""
    return mailing(settings, mail_sink)


def test_an_expired_link_asks_for_and_gets_a_new_one(page: Page, servers: Servers, csrf_app,
                                                     axe: Axe, mail_sink, portal_clock) -> None:
    path = merchant_link(csrf_app, onboard(csrf_app))
    portal_clock.advance(DAY + 1)
    page.goto(path)
    expect(page.get_by_role("heading", level=1)).to_have_text("This link has expired.")
    axe.check(page)
    screenshot(page, "merchant-link-expired")
    page.get_by_role("button", name="Send me a new link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("A new link is on its way")
    axe.check(page)
    screenshot(page, "merchant-link-renewed")
    [message] = mail_sink.messages()
    page.goto(link_in(message))
    expect(page.locator("#camera-check")).to_be_visible()


def test_a_finished_merchants_link_says_what_happens_next(page: Page, servers: Servers,
                                                          csrf_app, axe: Axe) -> None:
    merchant_id = onboard(csrf_app)
    path = merchant_link(csrf_app, merchant_id)
    with csrf_app.app_context():
        db.session.get(Merchant, merchant_id).status = "PENDING_REVIEW"
        db.session.commit()
    page.goto(path)
    expect(page.locator(".verification-finished")).to_contain_text("now checks your details")
    axe.check(page)
    screenshot(page, "merchant-link-finished")


def test_the_partners_branding_on_the_merchants_page(page: Page, servers: Servers, csrf_app,
                                                     axe: Axe, tmp_path) -> None:
    log_in(page, AuthActions(csrf_app, None).create("admin"), app=csrf_app)
    page.goto("/admin/branding")
    page.get_by_label("Partner name shown to merchants").fill("Kerala Stays")
    page.get_by_label("Accent colour").fill("#ffbf47")
    page.get_by_role("button", name="Save branding").click()
    expect(page.locator("#accent_colour-errors")).to_contain_text("too light to read")
    axe.check(page)
    screenshot(page, "branding-refused")
    logo = tmp_path / "logo.png"
    logo.write_bytes(tiny_png())
    page.get_by_label("Accent colour").fill("#0b6e4f")
    page.get_by_label("Logo", exact=True).set_input_files(str(logo))
    page.get_by_role("button", name="Save branding").click()
    expect(page.locator(".flash--success")).to_contain_text("The branding was saved")
    screenshot(page, "branding-saved")
    page.goto(merchant_link(csrf_app, onboard(csrf_app)))
    expect(page.locator(".partner-header__name")).to_have_text("Kerala Stays")
    expect(page.locator("img.partner-header__logo")).to_be_visible()
    colour = page.evaluate("getComputedStyle(document.querySelector('#camera-start'))"
                           ".backgroundColor")
    assert colour == "rgb(11, 110, 79)"
    axe.check(page)
    screenshot(page, "merchant-branded")
