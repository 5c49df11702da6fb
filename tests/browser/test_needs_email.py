"""What a merchant will need reaches them, in Chromium: emailed from the new-merchant page in
Hindi (a mistyped address refused beside its field first), and listed on their link's page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from tests.browser.support import PHONE, Axe, Servers, choose, log_in, screenshot
from tests.support.mail import body_of, mail_sink, mailing
from tests.verification.support import merchant_link, onboard

__all__ = ["mail_sink"]
pytestmark = pytest.mark.browser


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The browser tests' settings, mailing to the loopback sink."""
    return mailing(settings, mail_sink)


def test_the_list_is_emailed_in_hindi_from_the_new_merchant_page(page: Page, auth, axe: Axe,
                                                                 mail_sink) -> None:
    log_in(page, auth.create("ops"))
    choose(page)
    page.get_by_role("link", name="Email this list to the merchant").click()
    expect(page.locator(".requirements-list [data-requirement='fssai_licence']")).to_be_visible()
    page.get_by_label("The merchant's email address").fill("owner at lotus")
    page.get_by_label("Their name (optional)").fill("Ravi Mehta")
    page.get_by_role("button", name="Email the list").click()
    expect(page.locator("#email-errors")).to_have_text(
        "Enter an email address like name@example.com.")
    expect(page.get_by_label("Their name (optional)")).to_have_value("Ravi Mehta")
    axe.check(page)
    screenshot(page, "needs-email-refused")
    page.get_by_label("The merchant's email address").fill("owner@lotus.example.com")
    page.get_by_label("Language of the email").select_option("hi")
    page.get_by_role("button", name="Email the list").click()
    expect(page.locator(".flash")).to_contain_text("emailed to o***@lotus.example.com")
    expect(page.get_by_label("Business category")).to_have_value("FOOD_AND_BEVERAGES")
    [message] = mail_sink.messages()
    assert "FSSAI लाइसेंस" in body_of(message)


def test_the_link_page_lists_what_the_merchant_still_provides(page: Page, servers: Servers,
                                                              csrf_app, axe: Axe) -> None:
    merchant_id = onboard(csrf_app)
    with csrf_app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        merchant.requirement_choice, merchant.language = {"sector": "FOOD_AND_BEVERAGES"}, "hi"
        db.session.commit()
    page.set_viewport_size(PHONE)
    page.goto(merchant_link(csrf_app, merchant_id))
    needed = page.locator("details.still-needed")
    expect(needed.locator("li")).not_to_have_count(0)
    needed.locator("summary").click()
    expect(needed.locator("[data-requirement='fssai_licence']")).to_have_text("FSSAI लाइसेंस")
    axe.check(page)
    screenshot(page, "merchant-link-still-needed-hi")
