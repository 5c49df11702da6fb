"""Revision 3 in Chromium, with the sandbox answering in each dialect (the contract's shapes and
the gateway docs'): a hold authorised, captured and partly refunded twice reads right; a capture
declined with a 2xx books nothing and says why; a customer's return that never arrives is
settled by one run of the worker's poll; an answer that does not say is never a 500."""

# ruff: noqa: F811
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.payment_steps import act, hold_and_pay, merchant_id  # noqa: F401
from tests.browser.support import Axe, Servers
from tests.payments.support import APPROVING_CARD, CAPTURE_DECLINED_CARD, CAPTURE_QUEUED_CARD
from tests.support.workers import run_worker

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def every_answer_dialect(answer_dialect: str) -> str:
    """Each test runs with the sandbox in the contract's dialect, then the docs'."""
    return answer_dialect


def summary(page: Page, field: str):
    return page.locator(f"dl.readonly [data-field='{field}']")


def test_authorised_captured_and_partly_refunded_twice(page: Page, servers: Servers,
                                                      merchant_id: int, axe: Axe) -> None:
    hold_and_pay(page, servers, merchant_id, APPROVING_CARD)
    expect(summary(page, "status")).to_have_attribute("data-status", "AUTHORIZED")
    act(page, "capture")
    expect(summary(page, "status")).to_have_attribute("data-status", "SENT_FOR_CAPTURE")
    act(page, "refund", "200.00")
    expect(page.locator(".flash--success")).to_contain_text("The refund was sent")
    act(page, "refund", "300.00")
    expect(page.locator("table.refunds tbody tr")).to_have_count(2)
    expect(summary(page, "refundable")).to_have_text("1,000 INR")
    page.get_by_role("button", name="Refresh status").click()
    page.wait_for_load_state()
    expect(summary(page, "status")).to_have_attribute("data-status", "SENT_FOR_REFUND")
    expect(summary(page, "refundable")).to_have_text("1,000 INR")
    axe.check(page)


def test_a_capture_declined_with_a_2xx_books_nothing_and_says_why(
        page: Page, servers: Servers, merchant_id: int, axe: Axe) -> None:
    hold_and_pay(page, servers, merchant_id, CAPTURE_DECLINED_CARD)
    act(page, "capture")
    expect(page.locator(".flash--error")).to_contain_text(
        "The gateway declined the capture: The card issuer declined the payment. "
        "Nothing was captured.")
    expect(summary(page, "status")).to_have_attribute("data-status", "AUTHORIZED")
    expect(page.locator("form.action--capture")).to_be_visible()
    axe.check(page)


def test_a_return_that_never_arrives_is_settled_by_one_run_of_the_poll(
        page: Page, servers: Servers, merchant_id: int, csrf_app) -> None:
    # the customer's browser loses the way back: the return never reaches the portal
    page.route(f"{servers.portal}/payments/callback",
               lambda route: route.fulfill(status=200, body="The connection was lost."))
    hold_and_pay(page, servers, merchant_id, APPROVING_CARD)  # its return is cut
    expect(summary(page, "status")).to_have_attribute("data-status", "INPROGRESS")
    assert run_worker(csrf_app) >= 1  # one pass: every periodic job, the poll among them
    page.reload()
    expect(summary(page, "status")).to_have_attribute("data-status", "AUTHORIZED")


def test_an_answer_that_does_not_say_is_never_a_500(page: Page, servers: Servers,
                                                     merchant_id: int, axe: Axe) -> None:
    hold_and_pay(page, servers, merchant_id, CAPTURE_QUEUED_CARD)
    act(page, "capture")
    expect(page.locator(".outcome-unknown")).to_contain_text("Outcome unknown")
    expect(page.locator("form.action--capture")).to_have_count(0)
    page.get_by_role("button", name="Refresh status").click()
    page.wait_for_load_state()
    expect(summary(page, "status")).to_have_attribute("data-status", "SENT_FOR_CAPTURE")
    expect(page.locator(".outcome-unknown")).to_have_count(0)
    axe.check(page)
