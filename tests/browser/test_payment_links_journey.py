"""Payment links in Chromium: ops email a hold's link; the customer, in a browser of their own,
opens it, continues to the sandbox's checkout and pays; the hold's page then says the link was
opened and paid, and the payments list finds the hold by the customer's email. The link's other
states (not emailed, resent, cancelled, expired) on the hold's page and the customer's; axe on
every page, at 1280 and 375 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.core.config import SETTINGS_EXTENSION, Settings
from tests.browser.payment_steps import fill_hold_form, pay_on_checkout_page
from tests.browser.support import Axe, Console, Servers, log_in, screenshot
from tests.payments.support import APPROVING_CARD, add_merchant
from tests.support.mail import link_in, mail_sink, mailing
from tests.wizard.support import closed_port

pytestmark = pytest.mark.browser
__all__ = ["closed_port", "mail_sink"]
#: A merchant's name as long as the form takes, to see how pages wrap it.
LONG_NAME = "Sri Venkateswara Lakshmi Narasimha Handloom Silk Sarees and Textiles Emporium"


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The browser suite's settings, mailing to the loopback sink, as Acme Payments."""
    return mailing(settings, mail_sink).with_changes(partner_name="Acme Payments")


@pytest.fixture
def merchant_id(page: Page, auth, app) -> int:
    """An approved merchant with payment credentials (set up by an admin, who stays signed in
    on ``page``)."""
    merchant_id = add_merchant(app, "APPROVED", name=LONG_NAME)
    log_in(page, auth.create("admin"), app=app)
    page.goto(f"/merchants/{merchant_id}/payments/credentials")
    page.get_by_role("button", name="Save credentials").click()
    expect(page.locator(".current-credentials")).to_be_visible()
    return merchant_id


def email_link(page: Page, merchant_id: int) -> None:
    """Fill the new-hold form and press "Email the customer a payment link"."""
    page.goto(f"/merchants/{merchant_id}/payments/new")
    fill_hold_form(page)
    page.get_by_role("button", name="Email the customer a payment link").click()
    page.wait_for_url("**/payments/*")


def test_ops_email_a_link_the_customer_pays_the_hold_says_so(
        page: Page, customer: Page, servers: Servers, merchant_id: int, axe: Axe,
        mail_sink, console: Console) -> None:
    page.goto(f"/merchants/{merchant_id}/payments/new")
    axe.check(page)
    screenshot(page, "payment-link-new-hold")
    email_link(page, merchant_id)
    expect(page.locator(".flash--success")).to_contain_text(
        "A payment link was emailed to a***@example.com")
    panel = page.locator("section.payment-link")
    expect(panel).to_have_attribute("data-standing", "waiting")
    axe.check(page)
    screenshot(page, "payment-link-hold-waiting")
    hold_url = page.url  # the form will not send a hold whose link is live, and says why
    page.goto(f"/merchants/{merchant_id}/payments/new?resume={hold_url.rsplit('/', 1)[1]}")
    expect(page.locator(".resume-refused")).to_contain_text("it is still live")
    expect(page.locator("form.hold-form")).to_have_count(0)
    axe.check(page)
    screenshot(page, "payment-link-resume-refused")
    page.goto(hold_url)

    link = link_in(mail_sink.messages()[-1])
    customer.goto(link)
    expect(customer.locator(".partner-header")).to_have_text("Acme Payments")
    expect(customer.locator("h1")).to_have_text(f"Pay 1,500 INR to {LONG_NAME}")
    axe.check(customer)
    screenshot(customer, "payment-link-customer-page")
    customer.get_by_role("button", name="Continue to the secure payment page").click()
    customer.wait_for_url(f"{servers.sandbox.url}/**")
    pay_on_checkout_page(customer, servers, APPROVING_CARD)
    expect(customer.locator("body")).to_contain_text("your payment is authorised")
    customer.goto(link)
    expect(customer.locator("h1")).to_have_text("Thank you: your payment is authorised")
    axe.check(customer)
    screenshot(customer, "payment-link-customer-paid")

    page.reload()
    expect(panel).to_have_attribute("data-standing", "paid")
    expect(page.locator("[data-field='link-paid']")).to_have_text(
        "Yes: the gateway authorised the amount")
    expect(page.locator("form.link-resend")).to_have_count(0)
    axe.check(page)
    screenshot(page, "payment-link-hold-paid")

    page.goto("/payments")
    page.get_by_label("Guest name, order reference or customer email").fill("ASHA@example.com")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("table.payments tbody tr")).to_have_count(1)
    expect(page.locator(".link-standing")).to_have_text("Link opened and paid")
    axe.check(page)
    screenshot(page, "payments-search-found")
    assert console.csp_violations == []
    assert console.errors == []


def test_a_links_other_states_read_well(page: Page, customer: Page, servers: Servers,
                                        merchant_id: int, axe: Axe, mail_sink, csrf_app,
                                        closed_port: str) -> None:
    page.goto(f"/merchants/{merchant_id}/payments/new")
    fill_hold_form(page)
    page.locator("[name='paymentData-billingData-emailId']").fill("")
    page.get_by_role("button", name="Email the customer a payment link").click()
    expect(page.locator("#paymentData-billingData-emailId-errors")).to_have_text(
        "Enter the customer's email: the payment link is sent to it.")
    axe.check(page)
    screenshot(page, "payment-link-needs-email")

    settings = csrf_app.extensions[SETTINGS_EXTENSION]  # the served portal's
    csrf_app.extensions[SETTINGS_EXTENSION] = settings.with_changes(
        mail_port=int(closed_port.rsplit(":", 1)[1]))
    page.locator("[name='paymentData-billingData-emailId']").fill(
        "asha.rao.accounts-payable.department@example-customer-company.co.in")
    page.get_by_role("button", name="Email the customer a payment link").click()
    page.wait_for_url("**/payments/*")
    expect(page.locator("section.payment-link")).to_have_attribute("data-standing",
                                                                    "not_emailed")
    axe.check(page)
    screenshot(page, "payment-link-not-emailed")

    csrf_app.extensions[SETTINGS_EXTENSION] = settings
    page.get_by_role("button", name="Resend the link").click()
    expect(page.locator(".flash--success")).to_contain_text("A payment link was emailed")
    link = link_in(mail_sink.messages()[-1])
    cancel = page.locator("form.link-cancel")
    cancel.get_by_role("checkbox").check()
    cancel.get_by_role("button", name="Cancel the link").click()
    expect(page.locator("section.payment-link")).to_have_attribute("data-standing", "cancelled")
    expect(page.locator("form.action--discard")).to_have_count(1)
    axe.check(page)
    screenshot(page, "payment-link-cancelled")

    customer.goto(link)
    expect(customer.locator("h1")).to_have_text("This link cannot be used")
    expect(customer.locator(".refused")).to_contain_text("This payment link was withdrawn.")
    axe.check(customer)
    screenshot(customer, "payment-link-customer-withdrawn")

