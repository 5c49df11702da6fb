"""A hold close to its expiry held again, in Chromium at 375 px: ops press "Hold again" on the
hold's page; the customer, in a browser of their own, pays the new link on the sandbox's hosted
checkout; once the worker has run, the old hold shows as released and the two pages link to
each other. axe on every page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import update

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.payment import Payment
from tests.browser.payment_steps import fill_hold_form, pay_on_checkout_page, set_up_credentials
from tests.browser.support import PHONE, Axe, Console, Servers, log_in, screenshot
from tests.payments.support import APPROVING_CARD, add_merchant
from tests.support.mail import link_in, mail_sink, mailing
from tests.support.workers import run_worker

pytestmark = pytest.mark.browser
__all__ = ["mail_sink"]


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The browser suite's settings, mailing to the loopback sink."""
    return mailing(settings, mail_sink).with_changes(partner_name="Acme Payments")


def pay_the_last_link(customer: Page, servers: Servers, mail_sink) -> None:
    """The customer opens the last emailed link and pays it on the hosted checkout."""
    customer.goto(link_in(mail_sink.messages()[-1]))
    customer.get_by_role("button", name="Continue to the secure payment page").click()
    customer.wait_for_url(f"{servers.sandbox.url}/**")
    pay_on_checkout_page(customer, servers, APPROVING_CARD)
    expect(customer.locator("body")).to_contain_text("your payment is authorised")


def test_a_hold_near_expiry_is_held_again_and_the_old_one_released(
        page: Page, customer: Page, servers: Servers, auth, app, axe: Axe, mail_sink,
        console: Console) -> None:
    page.set_viewport_size(PHONE)
    customer.set_viewport_size(PHONE)
    merchant_id = add_merchant(app, "APPROVED")
    log_in(page, auth.create("admin"), app=app)
    set_up_credentials(page, merchant_id)
    page.goto(f"/merchants/{merchant_id}/payments/new")
    fill_hold_form(page)
    page.get_by_role("button", name="Email the customer a payment link").click()
    page.wait_for_url("**/payments/*")
    old_url = page.url
    pay_the_last_link(customer, servers, mail_sink)
    with app.app_context():  # day 6 of the authorisation's 7
        db.session.execute(update(Payment).where(Payment.id == int(old_url.rsplit("/", 1)[1]))
                           .values(authorized_at=clock.utcnow() - timedelta(days=6)))
        db.session.commit()

    page.goto(old_url)
    expect(page.locator(".hold-expiry")).to_contain_text("or hold it again below")
    axe.check(page)
    screenshot(page, "hold-again-offered")
    page.get_by_role("button", name="Hold again").click()
    expect(page.locator(".flash--success")).to_contain_text("A payment link was emailed to")
    expect(page.locator(".held-again")).to_contain_text("Holds again the hold of order")
    new_url = page.url
    assert new_url != old_url
    axe.check(page)
    screenshot(page, "hold-again-new-hold")
    page.goto(old_url)
    expect(page.locator(".held-again")).to_contain_text("once the customer pays it, this hold "
                                                        "is released")
    expect(page.get_by_role("button", name="Hold again")).to_have_count(0)

    pay_the_last_link(customer, servers, mail_sink)
    axe.check(customer)
    run_worker(app)  # the release the authorisation queued
    page.goto(old_url)
    expect(page.locator("[data-field='status']")).to_contain_text("Released")
    expect(page.locator(".held-again")).to_contain_text(
        "the customer paid it, so this hold was released")
    axe.check(page)
    screenshot(page, "hold-again-old-released")
    page.locator(".held-again a").click()
    expect(page).to_have_url(new_url)
    expect(page.locator(".held-again")).to_contain_text(
        "that hold was released once this one was authorised")
    axe.check(page)
    screenshot(page, "hold-again-new-authorised")
    assert console.csp_violations == []
    assert console.errors == []
