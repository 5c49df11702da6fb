"""The payment pages in Chromium say what happened: a declined payment has no authorised
amount, a refund's message replaces the capture's, a refund repeated after Back is held back
until meant, money-moving actions look destructive; the hold form checks the phone's parts."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.payment_steps import act, fill_hold_form, hold_and_pay, merchant_id
from tests.browser.support import Axe, Servers, screenshot
from tests.payments.support import APPROVING_CARD, DECLINED_CARD

#: The support modules' fixtures this folder's tests use.
__all__ = ["merchant_id"]

pytestmark = pytest.mark.browser


def test_a_declined_payment_has_no_authorised_amount(page: Page, servers: Servers,
                                                     merchant_id: int, axe: Axe) -> None:
    hold_and_pay(page, servers, merchant_id, DECLINED_CARD)
    expect(page.locator("[data-field='status']")).to_have_attribute(
        "data-status", "ISSUER_DECLINE")
    expect(page.locator("dl.readonly")).not_to_contain_text("Authorised amount")
    expect(page.locator("dl.readonly")).to_contain_text("Amount asked (not authorised)")
    axe.check(page)


def test_refunds_update_the_message_and_a_repeat_after_back_is_held(
        page: Page, servers: Servers, merchant_id: int, axe: Axe) -> None:
    hold_and_pay(page, servers, merchant_id, APPROVING_CARD)
    reverse = page.locator("form.action--reverse button[type=submit]")
    expect(reverse).to_have_class(re.compile(r"\bbutton--danger\b"))
    screenshot(page, "payment-authorised")
    act(page, "capture")
    expect(page.locator("dl.readonly")).to_contain_text("Sent for capture")
    detail = page.url
    act(page, "refund", "100.00")
    expect(page.locator(".flash--success")).to_contain_text("The refund was sent")
    expect(page.locator("dl.readonly")).not_to_contain_text("Sent for capture")
    page.go_back()
    page.goto(detail)  # as the browser does when Back lands on the form's page
    act(page, "refund", "100.00")
    expect(page.locator(".flash--error")).to_contain_text("already sent")
    expect(page.locator("table.refunds tbody tr")).to_have_count(1)
    expect(page.locator("form.action--refund button[type=submit]")).to_have_class(
        re.compile(r"\bbutton--danger\b"))
    axe.check(page)
    screenshot(page, "payment-refund-repeat")
    act(page, "refund", "100.00", again=True)
    expect(page.locator(".flash--success")).to_contain_text("The refund was sent")
    expect(page.locator("table.refunds tbody tr")).to_have_count(2)


def test_a_partly_refunded_payment_says_how_much_of_what(page: Page, servers: Servers,
                                                        merchant_id: int, axe: Axe) -> None:
    hold_and_pay(page, servers, merchant_id, APPROVING_CARD)
    act(page, "capture")
    act(page, "refund", "250")
    expect(page.locator(".flash--success")).to_contain_text(
        "the payment is now partly refunded: 250 of 1,500 INR")
    expect(page.locator("[data-field='status']")).to_have_text(
        "Partly refunded: 250 of 1,500 INR")
    expect(page.locator("[data-field='refundable']")).to_have_text("1,250 INR")
    told = page.locator("h1 .order-reference").inner_text()
    expect(page.locator("[data-field='order-reference'] code")).to_have_text(told)
    axe.check(page)
    screenshot(page, "payment-partly-refunded")
    page.goto("/payments")
    expect(page.locator(f"tr:has-text('{told}') .status")).to_have_text(
        "Partly refunded: 250 of 1,500 INR")
    axe.check(page)


@pytest.mark.parametrize(("name", "value", "expected"), [
    ("paymentData-billingData-callingCode", "91", "with its +"),
    ("paymentData-billingData-phoneNumber", "98x", "4 to 14 digits"),
])
def test_the_hold_form_checks_the_phone_parts(page: Page, merchant_id: int, axe: Axe,
                                             name: str, value: str, expected: str) -> None:
    page.goto(f"/merchants/{merchant_id}/payments/new")
    fill_hold_form(page)
    page.locator(f"[name='{name}']").fill(value)
    page.get_by_role("button", name="Create hold and go to the checkout page").click()
    page.wait_for_load_state()
    errors = page.locator(f".field:has([name='{name}']) .field__errors")
    expect(errors).to_contain_text(expected)
    axe.check(page)
