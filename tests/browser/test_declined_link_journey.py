"""A payment link whose payment the gateway declines, in Chromium at 1280 and 375 px with axe:
the customer reads one message in the merchant's words on the result page and on the link,
no staff text and no way into the portal; ops send a new link in one click, and the customer
pays it (issue 36, item 3)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.core.config import Settings
from tests.browser.payment_steps import email_a_payment_link, pay_on_checkout_page
from tests.browser.support import PHONE, Axe, Servers, screenshot
from tests.payments.support import APPROVING_CARD, DECLINED_CARD, add_merchant
from tests.support.mail import link_in, mail_sink, mailing

pytestmark = pytest.mark.browser
__all__ = ["mail_sink"]
SHOP = "Lotus Homestay"
#: Words of the staff's pages that a customer never reads.
STAFF_WORDS = ("capture", "release", "merchant_txn", "audit", "Sign in", "gateway")
NOT_PAID_HEADING = "Your payment was not completed"
NOT_PAID = f"Nothing was charged. To pay, ask {SHOP} for a new payment link."


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The browser suite's settings, mailing to the loopback sink, as Acme Payments."""
    return mailing(settings, mail_sink).with_changes(partner_name="Acme Payments")


def expect_customer_page(customer: Page, axe: Axe, name: str) -> None:
    """The customer's page says it in the merchant's words, and nothing of the staff's."""
    expect(customer.locator(".not-paid")).to_have_text(NOT_PAID)
    text = customer.locator("body").inner_text()
    assert not [word for word in STAFF_WORDS if word.lower() in text.lower()], text
    expect(customer.locator("a[href^='/payments'], a[href^='/merchants'], nav")).to_have_count(0)
    for viewport in ({"width": 1280, "height": 800}, PHONE):
        customer.set_viewport_size(viewport)
        axe.check(customer)
    screenshot(customer, name)


def test_a_declined_link_payment_is_sent_again_in_one_click_and_paid(
        page: Page, customer: Page, servers: Servers, auth, app, axe: Axe, mail_sink) -> None:
    merchant_id = add_merchant(app, "APPROVED", name=SHOP)
    email_a_payment_link(page, auth, app, merchant_id)
    hold_url = page.url

    first = link_in(mail_sink.messages()[-1])
    customer.goto(first)
    customer.get_by_role("button", name="Continue to the secure payment page").click()
    customer.wait_for_url(f"{servers.sandbox.url}/**")
    pay_on_checkout_page(customer, servers, DECLINED_CARD)
    expect(customer.locator("h1")).to_have_text(NOT_PAID_HEADING)
    expect_customer_page(customer, axe, "declined-link-result")
    customer.goto(first)  # the link says the same
    expect_customer_page(customer, axe, "declined-link-page")

    page.goto(hold_url)
    renewal = page.locator("section.renewal")
    expect(renewal).to_contain_text("The customer did not pay this one")
    axe.check(page)
    screenshot(page, "declined-link-send-new")
    renewal.get_by_role("button", name="Send a new link").click()
    page.wait_for_load_state()
    expect(page.locator("[data-field='replaces']")).to_be_visible()
    new_hold = page.url
    assert new_hold != hold_url
    page.set_viewport_size(PHONE)
    axe.check(page)
    screenshot(page, "declined-link-new-hold")

    second = link_in(mail_sink.messages()[-1])
    assert second != first
    customer.goto(second)
    customer.get_by_role("button", name="Continue to the secure payment page").click()
    customer.wait_for_url(f"{servers.sandbox.url}/**")
    pay_on_checkout_page(customer, servers, APPROVING_CARD)
    expect(customer.locator("h1")).to_have_text("Thank you: your payment is authorised")
    page.goto(hold_url)
    expect(page.locator("[data-field='replaced-by']")).to_have_attribute(
        "href", new_hold.removeprefix(servers.portal))
