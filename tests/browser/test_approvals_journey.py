"""Four-eyes in Chromium: one admin asks for a refund above FOUR_EYES_REFUND_ABOVE with a
reason, a second admin sees it counted in the navigation, approves it on the Approvals page,
and the payment shows the refund sent; axe on each page, screenshots at 1280 and 375 px."""

from __future__ import annotations

from decimal import Decimal

import pytest
from playwright.sync_api import Browser, Page, expect

from portal.core.config import Settings
from tests.browser.payment_steps import hold_and_pay
from tests.browser.support import Axe, Console, Servers, log_in, screenshot
from tests.payments.support import APPROVING_CARD, add_merchant

pytestmark = pytest.mark.browser


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Refunds above 1000 wait for a second admin."""
    return settings.with_changes(four_eyes_refund_above=Decimal(1000))


def captured_payment(page: Page, servers: Servers, merchant_id: int) -> None:
    """Credentials generated, a hold of 1500.00 INR paid on the hosted page and captured; the
    page is left on the payment."""
    page.goto(f"/merchants/{merchant_id}/payments/credentials")
    page.get_by_role("button", name="Save credentials").click()
    hold_and_pay(page, servers, merchant_id, APPROVING_CARD)
    capture = page.locator("form.action--capture")
    capture.get_by_role("checkbox").check()
    capture.get_by_role("button", name="Capture").click()
    expect(page.locator("body")).to_contain_text("now captured")


def test_a_large_refund_is_sent_once_a_second_admin_approves(
        page: Page, chromium: Browser, servers: Servers, axe: Axe, auth, app,
        console: Console) -> None:
    merchant_id = add_merchant(app, "APPROVED")
    log_in(page, auth.create("admin"), app=app)
    captured_payment(page, servers, merchant_id)
    payment_url = page.url

    refund = page.locator("form.action--refund")
    refund.get_by_label("Amount (INR)").fill("1200.00")
    refund.get_by_label("I confirm: refund this amount to the customer").check()
    refund.get_by_role("button", name="Refund").click()
    expect(page.locator("#refund-reason-errors")).to_contain_text("another admin reads it")
    expect(page.get_by_label("Amount (INR)")).to_have_value("1200.00")  # nothing typed is lost
    axe.check(page)
    page.get_by_label("Reason, for the second admin").fill("Order returned; ticket SUP-208")
    page.locator("form.action--refund").get_by_role("button", name="Refund").click()
    expect(page.locator(".flash--success")).to_contain_text("needs a second admin's approval")
    expect(page.locator("section.approvals-of")).to_contain_text("Waiting for a second admin")
    expect(page.locator("table.refunds")).to_have_count(0)  # nothing sent yet
    axe.check(page)
    screenshot(page, "payment-awaiting-approval")

    second = chromium.new_context(base_url=servers.portal)
    other = second.new_page()
    try:
        log_in(other, auth.create("admin", "second-admin@example.com"), app=app)
        approvals = other.locator(".site-nav a", has_text="Approvals")
        expect(approvals.locator(".nav-count")).to_have_text("1 waiting")
        approvals.click()
        card = other.locator("article.approval")
        expect(card).to_contain_text("Refund 1200.00 INR")
        expect(card).to_contain_text("Order returned; ticket SUP-208")
        axe.check(other)
        screenshot(other, "approvals")
        card.get_by_label("Reason for your decision").fill("Checked the returned goods")
        card.get_by_role("button", name="Approve and carry out").click()
        expect(other.locator(".flash--success")).to_contain_text("Approved and carried out")
        expect(other.locator("table.approvals-table")).to_contain_text("Approved and done")
        axe.check(other)
        screenshot(other, "approvals-decided")
    finally:
        second.close()

    page.goto(payment_url)
    expect(page.locator("table.refunds tbody tr td").nth(1)).to_have_text("1,200 INR")
    expect(page.locator("table.refunds tbody tr td").nth(2)).to_have_text("Sent to the gateway")
    expect(page.locator("section.approvals-of")).to_contain_text("Approved and done")
    assert console.csp_violations == []
    assert console.errors == []
