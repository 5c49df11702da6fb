"""Chromium steps of the payments journeys: a merchant approved with credentials, a hold
placed and paid on the hosted page, an action on the payment's page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from portal.core.db import db
from portal.core.models.merchant import Merchant
from tests.browser.support import Servers, log_in
from tests.payments.support import add_merchant, hold_values
from tests.verification.support import onboard


def merchant_id_of(page: Page) -> int:
    """The merchant id in the current URL (/merchants/<id>/...)."""
    found = re.search(r"/merchants/(\d+)/", page.url)
    assert found is not None, page.url
    return int(found.group(1))


@pytest.fixture
def merchant_id(page: Page, servers: Servers, auth, app) -> int:
    """An approved merchant with payment credentials, an admin signed in."""
    merchant_id = add_merchant(app, "APPROVED")
    log_in(page, auth.create("admin"), app=app)
    page.goto(f"/merchants/{merchant_id}/payments/credentials")
    page.get_by_role("button", name="Save credentials").click()
    expect(page.locator(".current-credentials")).to_be_visible()
    return merchant_id


def hold_and_pay(page: Page, servers: Servers, merchant_id: int, card: str) -> None:
    """Create the usual hold and pay it on the sandbox's page; ends on the payment's page."""
    page.goto(f"/merchants/{merchant_id}/payments/new")
    fill_hold_form(page)
    page.get_by_role("button", name="Create hold and go to the checkout page").click()
    page.wait_for_url(f"{servers.sandbox.url}/**")
    pay_on_checkout_page(page, servers, card)
    page.goto("/payments")
    page.locator("table a[href^='/payments/']").first.click()
    page.wait_for_load_state()


def act(page: Page, action: str, amount: str | None = None, again: bool = False) -> None:
    """Tick and press one action form of the payment's page."""
    form = page.locator(f"form.action--{action}")
    if amount is not None:
        form.get_by_label(re.compile("^Amount")).fill(amount)
    form.get_by_label(re.compile("^I confirm")).check()
    if again:
        form.get_by_label("This is a second refund of the same amount").check()
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()


def fill_hold_form(page: Page) -> None:
    """Type the suite's usual hold (1500.00 INR, Asha Rao's billing details) into the form."""
    form = page.locator("form.hold-form")
    for name, value in hold_values().items():
        field = form.locator(f"[name='{name}']")
        if field.evaluate("(el) => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def pay_on_checkout_page(page: Page, servers: Servers, card: str) -> None:
    """Pay with ``card`` on the sandbox's hosted checkout page, back at the portal's callback."""
    page.get_by_label("Card number").fill(card)
    page.get_by_label("Expiry date (MM/YY)").fill("12/39")
    page.get_by_label("Security code (CVV)").fill("123")
    page.get_by_label("Name on card").fill("Asha Rao")
    page.get_by_role("button", name=re.compile(r"^Pay ")).click()
    page.wait_for_url(f"{servers.portal}/payments/callback")


def approved_by_the_sandbox(app, servers: Servers, scenario: str) -> int:
    """A merchant of ``scenario`` sent through every step, verified and reviewed by the sandbox,
    whose webhooks have reached the portal; its id."""
    merchant_id = onboard(app, scenario)
    with app.app_context():
        onboarding_id = db.session.get(Merchant, merchant_id).onboarding_id
    servers.onboarding.complete_verification(onboarding_id)
    servers.onboarding.tick()  # the review, then the approval's webhooks
    return merchant_id


def set_up_credentials(page: Page, merchant_id: int) -> None:
    """Save the sandbox's payments credentials for the merchant (an admin on ``page``)."""
    page.goto(f"/merchants/{merchant_id}/payments/credentials")
    page.get_by_role("button", name="Save credentials").click()
    expect(page.locator(".current-credentials")).to_be_visible()


def email_a_payment_link(page: Page, auth, app, merchant_id: int) -> None:
    """As an admin on ``page``: save the merchant's credentials and email the customer the
    suite's usual hold as a payment link; on the hold's page after."""
    log_in(page, auth.create("admin"), app=app)
    set_up_credentials(page, merchant_id)
    page.goto(f"/merchants/{merchant_id}/payments/new")
    fill_hold_form(page)
    page.get_by_role("button", name="Email the customer a payment link").click()
    page.wait_for_url("**/payments/*")
