"""Live merchants in Chromium: a merchant the gateway accepted for MCA but whose cards a pendency
holds up shows its health line ("International cards ...: not yet, waiting for the merchant
since ...") with its action on every page of it, and refuses a card hold; a paused merchant's
emailed payment link shows the customer the neutral "This payment is not available" page. axe
on every page at 1280 and 375 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.core.config import Settings
from portal.domain.onboarding import scenarios
from tests.browser.payment_steps import approved_by_the_sandbox, fill_hold_form, set_up_credentials
from tests.browser.support import Axe, Servers, audit, log_in, screenshot
from tests.payments.support import add_merchant
from tests.support.mail import link_in, mail_sink, mailing
from tests.support.sandbox import speak

pytestmark = pytest.mark.browser
__all__ = ["mail_sink"]

CARDS_LINE = ".health-banner .health-line[data-product='INTERNATIONAL_CARDS_AND_ALT_PAYS']"


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The browser suite's settings, mailing to the loopback sink."""
    return mailing(settings, mail_sink).with_changes(partner_name="Acme Payments")


def test_cards_held_up_by_a_pendency_show_the_health_line_and_refuse_a_hold(
        page: Page, servers: Servers, auth, csrf_app, axe: Axe) -> None:
    speak(servers.sandbox, "docs")
    merchant_id = approved_by_the_sandbox(csrf_app, servers, scenarios.CARDS_BLOCKED)
    log_in(page, auth.create("admin"), app=csrf_app)
    set_up_credentials(page, merchant_id)
    page.goto(f"/merchants/{merchant_id}")
    line = page.locator(CARDS_LINE)
    expect(line).to_contain_text(
        "International cards and alternative payments: not yet, waiting for the merchant since")
    expect(line).to_have_attribute("data-who", "merchant")
    expect(line.locator(".health-line__action")).to_contain_text(
        "Ask the merchant for what the gateway asks")
    expect(page.locator(".health-banner")).not_to_contain_text("Global fund transfer")
    expect(page.locator(".health-lines [data-product='GLOBAL_FUND_TRANSFER']")).to_contain_text(
        "Global fund transfer: yes, takes payments")
    audit(page, axe)
    screenshot(page, "live-summary-cards-held-up")

    page.goto(f"/merchants/{merchant_id}/payments/new")
    expect(page.locator(CARDS_LINE)).to_be_visible()  # on every page of the merchant
    expect(page.locator(".unavailable")).to_contain_text("holding up this merchant's cards")
    expect(page.locator("form.hold-form")).to_have_count(0)
    audit(page, axe)
    screenshot(page, "live-new-hold-refused")


def test_a_paused_merchants_link_shows_the_customer_the_neutral_page(
        page: Page, customer: Page, servers: Servers, auth, app, axe: Axe, mail_sink) -> None:
    merchant_id = add_merchant(app, "APPROVED", name="Chai Point")
    log_in(page, auth.create("admin"), app=app)
    set_up_credentials(page, merchant_id)
    page.goto(f"/merchants/{merchant_id}/payments/new")
    fill_hold_form(page)
    page.get_by_role("button", name="Email the customer a payment link").click()
    page.wait_for_url("**/payments/*")
    link = link_in(mail_sink.messages()[-1])

    page.goto(f"/merchants/{merchant_id}")
    page.get_by_role("link", name="Pause or deactivate").click()
    audit(page, axe)
    screenshot(page, "live-pause-page")
    page.get_by_role("button", name="Pause new payments").click()
    expect(page.locator(".field--invalid")).to_contain_text("Choose a reason.")
    page.get_by_label("Reason").first.select_option("fraud_review")
    page.locator("#pause-note").fill("Card testing suspected")
    page.get_by_role("button", name="Pause new payments").click()
    expect(page.locator(".flash--success")).to_contain_text("Chai Point is paused")
    expect(page.locator(".health-banner")).to_contain_text(
        "paused by admin@example.com: Suspected fraud under review (Card testing suspected)")
    audit(page, axe)
    screenshot(page, "live-paused")

    customer.goto(link)
    expect(customer.locator("h1")).to_have_text("This payment is not available")
    expect(customer.locator("body")).not_to_contain_text("paused")
    expect(customer.locator(".health-banner")).to_have_count(0)
    audit(customer, axe)
    screenshot(customer, "live-link-not-available")
