"""An admin takes a payment in Chromium for an approved merchant: the portfolio key and the
merchant's credentials choosing it, a new hold, the sandbox's hosted checkout on its own origin,
the callback, AUTHORIZED, capture, a partial refund (answered in the shape the gateway's PHP SDK
recorded); axe on each page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.payment_steps import fill_hold_form, pay_on_checkout_page
from tests.browser.support import Axe, Console, Servers, log_in
from tests.payments.support import APPROVING_CARD, add_merchant

pytestmark = pytest.mark.browser


def test_admin_holds_pays_captures_and_refunds(page: Page, servers: Servers, axe: Axe, auth, app,
                                       console: Console) -> None:
    merchant_id = add_merchant(app, "APPROVED")
    log_in(page, auth.create("admin"), app=app)
    page.goto("/admin/")
    axe.check(page)

    page.goto("/payments/portfolio-key")
    axe.check(page)
    page.get_by_label("Parent MID (portfolio)").fill("PARENTMID01")
    page.get_by_label("Key id (kid)").fill("kid-portfolio-1")
    page.get_by_role("button", name="Save the portfolio key").click()
    expect(page.locator(".current-credentials")).to_be_visible()
    axe.check(page)

    page.goto(f"/merchants/{merchant_id}/payments/credentials")
    axe.check(page)
    page.get_by_label(re.compile(r"^The partner's portfolio key")).check()
    page.get_by_role("button", name="Save credentials").click()
    expect(page.locator("[data-field='portfolio']")).to_contain_text("PARENTMID01")
    axe.check(page)

    page.goto(f"/merchants/{merchant_id}/payments")
    axe.check(page)
    page.goto(f"/merchants/{merchant_id}/payments/new")
    axe.check(page)
    fill_hold_form(page)
    page.get_by_role("button", name="Create hold and go to the checkout page").click()
    page.wait_for_url(f"{servers.sandbox.url}/**")

    pay_on_checkout_page(page, servers, APPROVING_CARD)
    expect(page.locator("body")).to_contain_text("your payment is authorised")

    page.goto("/payments")
    axe.check(page)
    page.locator("table a[href^='/payments/']").first.click()
    status = page.locator("[data-field='status']")
    expect(status).to_have_attribute("data-status", "AUTHORIZED")
    axe.check(page)
    capture = page.locator("form.action--capture")
    capture.get_by_role("checkbox").check()
    capture.get_by_role("button", name="Capture").click()
    expect(page.locator("body")).to_contain_text("now captured")
    expect(status).to_have_attribute("data-status", "SENT_FOR_CAPTURE")
    expect(page.locator("form.action--capture")).to_have_count(0)

    refund = page.locator("form.action--refund")
    refund.get_by_label("Amount (INR)").fill("500")
    refund.get_by_role("checkbox").check()
    refund.get_by_role("button", name="Refund").click()
    expect(page.locator("body")).to_contain_text("now partly refunded: 500 of 1,500 INR")
    expect(page.locator("table.refunds tbody tr td").nth(2)).to_have_text("Sent to the gateway")
    expect(page.locator("[data-field='refundable']")).to_have_text("1,000 INR")
    axe.check(page)
    assert console.csp_violations == []
    assert console.errors == []


