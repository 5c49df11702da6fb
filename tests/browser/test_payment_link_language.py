"""A customer of a Hindi merchant, on a phone (375 px) in headless Chromium: the payment link
opens in Hindi with its language switch; they switch to English, pay on the hosted checkout,
and the page they return to is in English, as is the link's page once paid, whose switch
takes them back to Hindi. axe on each page, screenshots at 1280 and 375 px."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import Actor
from portal.domain.onboarding import merchant_language
from tests.browser.payment_steps import email_a_payment_link, pay_on_checkout_page
from tests.browser.support import TIMEOUT_MS, Axe, Servers, screenshot
from tests.payments.support import APPROVING_CARD, add_merchant
from tests.support.mail import link_in, mail_sink, mailing

pytestmark = pytest.mark.browser
__all__ = ["mail_sink"]
SHOP = "Chai Point"


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The browser suite's settings, mailing to the loopback sink, as Acme Payments."""
    return mailing(settings, mail_sink).with_changes(partner_name="Acme Payments")


@pytest.fixture
def phone(chromium: Browser, servers: Servers) -> Iterator[Page]:
    """The customer's own phone browser, 375 px wide: never signed in to the portal."""
    context = chromium.new_context(base_url=servers.portal,
                                   viewport={"width": 375, "height": 740})
    context.set_default_timeout(TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


def emailed_link(page: Page, auth, app, mail_sink) -> str:
    """A Hindi merchant's hold emailed to its customer as a link, by an admin on ``page``; the
    link's path and query."""
    merchant_id = add_merchant(app, "APPROVED", name=SHOP)
    with app.app_context():
        merchant_language.set_default(db.session.get(Merchant, merchant_id), "hi",
                                      Actor("ops@example.com"))
    email_a_payment_link(page, auth, app, merchant_id)
    return link_in(mail_sink.messages()[-1])


def test_a_hindi_merchants_customer_switches_to_english_and_pays(
        page: Page, phone: Page, servers: Servers, auth, app, axe: Axe, mail_sink) -> None:
    link = emailed_link(page, auth, app, mail_sink)
    errors: list[str] = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    phone.goto(link)
    expect(phone.locator("html")).to_have_attribute("lang", "hi")
    expect(phone.locator("h1")).to_have_text(f"{SHOP} को 1,500 INR का पेमेंट करें")
    switch = phone.get_by_role("form", name="भाषा")
    expect(switch.locator("[aria-current='true']")).to_have_text("हिन्दी")
    axe.check(phone)
    screenshot(phone, "payment-link-switch-hindi")

    switch.get_by_role("button", name="English").click()
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    expect(phone.locator("h1")).to_have_text(f"Pay 1,500 INR to {SHOP}")
    switch = phone.get_by_role("form", name="Language")
    expect(switch.locator("[aria-current='true']")).to_have_text("English")
    expect(switch.get_by_role("button", name="हिन्दी")).to_be_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways at 375 px: {width} px wide"
    axe.check(phone)
    screenshot(phone, "payment-link-switched-english")

    phone.get_by_role("button", name="Continue to the secure payment page").click()
    phone.wait_for_url(f"{servers.sandbox.url}/**")
    pay_on_checkout_page(phone, servers, APPROVING_CARD)
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    expect(phone.locator("h1")).to_have_text("Thank you: your payment is authorised")
    axe.check(phone)
    screenshot(phone, "payment-returned-english")

    phone.goto(link)
    expect(phone.locator("h1")).to_have_text("Thank you: your payment is authorised")
    axe.check(phone)
    screenshot(phone, "payment-link-paid-english")
    phone.get_by_role("form", name="Language").get_by_role("button", name="हिन्दी").click()
    expect(phone.locator("html")).to_have_attribute("lang", "hi")
    expect(phone.locator("h1")).to_have_text("धन्यवाद: आपका पेमेंट मंज़ूर हो गया है")
    axe.check(phone)
    screenshot(phone, "payment-link-paid-hindi")

    page.goto(page.url)  # the hold's page, for the staff
    expect(page.locator("[data-field='link-language']")).to_have_text(
        "Hindi, picked on the link's page")
    axe.check(page)
    screenshot(page, "payment-link-hold-language")
    assert errors == []


def test_a_withdrawn_links_page_keeps_its_switch(page: Page, phone: Page, auth, app, axe: Axe,
                                                  mail_sink) -> None:
    link = emailed_link(page, auth, app, mail_sink)
    page.get_by_label("I confirm: cancel the link; the customer can no longer pay with it").check()
    page.get_by_role("button", name="Cancel the link").click()
    expect(page.locator("section.payment-link")).to_have_attribute("data-standing", "cancelled")
    phone.goto(link)
    expect(phone.locator("html")).to_have_attribute("lang", "hi")
    expect(phone.locator("h1")).to_have_text("यह लिंक इस्तेमाल नहीं हो सकता")
    axe.check(phone)
    screenshot(phone, "payment-link-withdrawn-hindi")
    phone.get_by_role("form", name="भाषा").get_by_role("button", name="English").click()
    expect(phone.locator("h1")).to_have_text("This link cannot be used")
    expect(phone.locator("main")).to_contain_text("This payment link was withdrawn.")
    axe.check(phone)
    screenshot(phone, "payment-link-withdrawn-english")
