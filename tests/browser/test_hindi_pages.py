"""The merchant's pages and their customers' in Hindi, in headless Chromium at 375 and 1280 px:
the link's page (html lang="hi", its Hindi heading, the camera check's words), the hand-over's
code and the computer's page following the phone in Hindi (the script's words come from the
page), a withdrawn link and the new one sent, and the payment link's page before and after
paying; axe on each, and screenshots of each for people to look at."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from portal.core.config import Settings, current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import Actor
from portal.domain.onboarding import merchant_language
from portal.domain.onboarding import merchant_links as links
from tests.browser.payment_steps import email_a_payment_link, pay_on_checkout_page
from tests.browser.support import TIMEOUT_MS, Axe, Servers, screenshot
from tests.payments.support import APPROVING_CARD, add_merchant
from tests.support.chromium import CAMERA_ANSWERS
from tests.support.mail import link_in, mail_sink, mailing
from tests.verification.support import onboard

pytestmark = pytest.mark.browser
__all__ = ["mail_sink"]
OPS = Actor("ops@example.com")
#: A name as long as the form takes, to see how the Hindi sentences wrap around it.
LONG_NAME = "Sri Venkateswara Lakshmi Narasimha Handloom Silk Sarees and Textiles Emporium"


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The browser suite's settings, mailing to the loopback sink, as Acme Payments."""
    return mailing(settings, mail_sink).with_changes(partner_name="Acme Payments")


def in_hindi(app, merchant_id: int) -> None:
    """Ops set the merchant's pages to Hindi."""
    with app.app_context():
        merchant_language.set_default(db.session.get(Merchant, merchant_id), "hi", OPS)


def issued(app, merchant_id: int) -> tuple[int, str]:
    """A new link of the merchant: its id and the path it opens."""
    with app.app_context():
        link, token = links.issue(current_settings().secret_key,
                                  db.session.get(Merchant, merchant_id), OPS)
        return link.id, f"/verify/{merchant_id}?token={token}"


def test_a_merchant_link_opens_in_hindi_on_a_phone_and_hands_over_in_hindi(
        chromium: Browser, servers: Servers, csrf_app, axe: Axe) -> None:
    merchant_id = onboard(csrf_app)
    in_hindi(csrf_app, merchant_id)
    _link_id, path = issued(csrf_app, merchant_id)
    context = chromium.new_context(base_url=servers.portal, viewport={"width": 375, "height": 740})
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", "hi")
        expect(page.locator("h1")).to_have_text("Sandbox Traders Private Limited: आपका वेरिफ़िकेशन")
        expect(page.get_by_role("button", name="मेरे फ़ोन पर आगे बढ़ें")).to_be_visible()
        axe.check(page)
        screenshot(page, "hi-merchant-page")
        page.evaluate(CAMERA_ANSWERS["missing"])
        with page.expect_response(lambda r: "/check?" in r.url):
            page.get_by_role("button", name="कैमरा और माइक चालू करने दें").click()
        expect(page.locator(".camera-check__result")).to_contain_text(
            "इस डिवाइस में कैमरा नहीं मिला।")
        axe.check(page)
        screenshot(page, "hi-merchant-no-camera")

        page.get_by_role("button", name="मेरे फ़ोन पर आगे बढ़ें").click()
        code = page.locator(".phone-handover__code")
        expect(code.get_by_role("img", name="आपके फ़ोन के लिए आपके लिंक का QR कोड")).to_be_visible()
        state = page.locator("[data-role='state']")
        expect(state).to_have_text("आपके फ़ोन का इंतज़ार है: फ़ोन के कैमरे से कोड स्कैन करें।")
        axe.check(page)
        screenshot(page, "hi-phone-code")
        handover = urlsplit(code.get_attribute("data-handover-url") or "")
        phone = chromium.new_context(base_url=servers.portal)
        try:
            phone.new_page().goto(f"{handover.path}?{handover.query}")
            expect(state).to_have_text("लिंक आपके फ़ोन पर खुल गया है: वहीं आगे बढ़ें। यह पेज "
                                       "साथ-साथ बताता रहेगा।")  # the script's words, in Hindi
        finally:
            phone.close()
        axe.check(page)
        screenshot(page, "hi-phone-opened")
    finally:
        context.close()


def test_a_withdrawn_link_sends_a_new_one_in_hindi(page: Page, servers: Servers, csrf_app,
                                                  axe: Axe, mail_sink) -> None:
    merchant_id = onboard(csrf_app)
    in_hindi(csrf_app, merchant_id)
    link_id, path = issued(csrf_app, merchant_id)
    with csrf_app.app_context():
        links.revoke(db.session.get(Merchant, merchant_id), link_id, OPS)
    page.goto(path)
    expect(page.locator("h1")).to_have_text("यह लिंक बंद कर दिया गया है।")
    axe.check(page)
    screenshot(page, "hi-link-withdrawn")
    page.get_by_role("button", name="मुझे नया लिंक भेजें").click()
    expect(page.locator("h1")).to_have_text("नया लिंक भेज दिया गया है")
    axe.check(page)
    screenshot(page, "hi-link-renewed")
    page.goto(link_in(mail_sink.messages()[-1]))
    expect(page.locator("html")).to_have_attribute("lang", "hi")


def test_a_customer_pays_a_hindi_merchants_link(page: Page, customer: Page, servers: Servers,
                                                 auth, app, axe: Axe, mail_sink) -> None:
    merchant_id = add_merchant(app, "APPROVED", name=LONG_NAME)
    in_hindi(app, merchant_id)
    email_a_payment_link(page, auth, app, merchant_id)
    link = link_in(mail_sink.messages()[-1])
    customer.goto(link)
    expect(customer.locator("html")).to_have_attribute("lang", "hi")
    expect(customer.locator("h1")).to_have_text(f"{LONG_NAME} को 1,500 INR का पेमेंट करें")
    axe.check(customer)
    screenshot(customer, "hi-payment-link")
    customer.get_by_role("button", name="सुरक्षित पेमेंट पेज पर जाएँ").click()
    customer.wait_for_url(f"{servers.sandbox.url}/**")
    pay_on_checkout_page(customer, servers, APPROVING_CARD)
    expect(customer.locator("h1")).to_have_text("धन्यवाद: आपका पेमेंट मंज़ूर हो गया है")
    axe.check(customer)
    screenshot(customer, "hi-payment-returned")
    customer.goto(link)
    expect(customer.locator("h1")).to_have_text("धन्यवाद: आपका पेमेंट मंज़ूर हो गया है")
    axe.check(customer)
    screenshot(customer, "hi-payment-link-paid")
    page.goto(f"/merchants/{merchant_id}")
    expect(page.locator("form.language-form select")).to_have_value("hi")
    axe.check(page)
    screenshot(page, "merchant-summary-language")
