"""The pages after the gateway decided lead somewhere, in Chromium: Set up payments on an
approved merchant, the reason and next step of a rejected one (nothing green), the requested
upload during an RFI, the Approvals card's merchant and payment, the customer's result page's
link for staff, and "Next: verification" after step 7. Each checked by axe."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import SYSTEM
from portal.domain.onboarding import scenarios
from portal.domain.onboarding.service import save_step_draft
from portal.domain.onboarding.steps import BY_KEY
from tests.browser.payment_steps import act, fill_hold_form, merchant_id, pay_on_checkout_page
from tests.browser.review_steps import reviewed
from tests.browser.support import Axe, Servers, log_in, screenshot
from tests.payments.support import APPROVING_CARD
from tests.support.approvals import second_admin
from tests.verification.support import onboard

pytestmark = pytest.mark.browser
__all__ = ["merchant_id"]  # the approved merchant with credentials, an admin signed in


def test_an_approved_merchant_leads_to_its_payments(page: Page, servers: Servers, auth,
                                                   csrf_app, axe: Axe) -> None:
    log_in(page, auth.create("admin"), app=csrf_app)
    merchant_id = reviewed(page, servers, csrf_app, scenarios.HAPPY)
    expect(page.locator(".onboarding-status")).to_have_attribute("data-status", "APPROVED")
    axe.check(page)
    screenshot(page, "status-approved")
    page.get_by_role("link", name="Set up payments").click()
    expect(page).to_have_url(re.compile(f"/merchants/{merchant_id}/payments/credentials$"))
    page.get_by_role("button", name="Save credentials").click()
    page.goto(f"/merchants/{merchant_id}/status")
    page.get_by_role("link", name="Take a payment").click()
    expect(page).to_have_url(re.compile(f"/merchants/{merchant_id}/payments/new$"))


def test_a_rejected_merchant_says_why_and_what_next(page: Page, servers: Servers, auth,
                                                    csrf_app, axe: Axe) -> None:
    log_in(page, auth.create("ops"))
    reviewed(page, servers, csrf_app, scenarios.REVIEW_REJECTED)
    rejection = page.locator(".rejection")
    expect(rejection).to_contain_text("Rejected after the compliance review")
    expect(rejection.get_by_role("link", name="Start a new merchant")).to_be_visible()
    expect(page.locator(".stepper__step[data-step='status']")).to_have_attribute(
        "data-state", "needs_attention")
    expect(page.locator(".flash--success")).to_have_count(0)
    axe.check(page)
    screenshot(page, "status-rejected")


def test_during_an_rfi_the_documents_step_asks_for_the_upload(page: Page, servers: Servers,
                                                             auth, csrf_app, axe: Axe) -> None:
    log_in(page, auth.create("ops"))
    merchant_id = reviewed(page, servers, csrf_app, scenarios.REVIEW_RFI)
    page.get_by_role("link", name="Go to the documents step").click()
    expect(page).to_have_url(re.compile(f"/merchants/{merchant_id}/steps/documents$"))
    expect(page.locator(".wizard-step")).not_to_contain_text("Locked")
    expect(page.locator(".rfi-request")).to_contain_text("Bank statement")
    expect(page.locator("form.upload[data-slot='BANK_STATEMENT']")).to_be_visible()
    axe.check(page)
    screenshot(page, "documents-rfi")


def test_after_step_7_the_wizard_goes_on_to_verification(page: Page, servers: Servers, auth,
                                                         csrf_app, axe: Axe) -> None:
    merchant_id = onboard(csrf_app, until="documents")
    with csrf_app.app_context():  # step 7 typed and saved, not sent yet
        assert save_step_draft(db.session.get(Merchant, merchant_id), BY_KEY["products"],
                               scenarios.form_data(scenarios.HAPPY, "products"), actor=SYSTEM).ok
    log_in(page, auth.create("ops"))
    page.goto(f"/merchants/{merchant_id}/steps/products")
    page.get_by_role("button", name="Save and send").click()
    expect(page).to_have_url(re.compile(f"/merchants/{merchant_id}/verification$"))
    expect(page.locator(".flash--success")).to_contain_text("Products sent to the gateway")
    expect(page.get_by_role("heading", name="Step 8 of 9: Verification")).to_be_visible()
    axe.check(page)


def test_the_customer_result_and_the_approvals_card_lead_somewhere(
        page: Page, servers: Servers, csrf_app, merchant_id: int, axe: Axe) -> None:
    page.goto(f"/merchants/{merchant_id}/payments/new")
    fill_hold_form(page)
    page.locator("[name='paymentData-totalAmount']").fill("18000.00")
    page.get_by_role("button", name="Create hold and go to the checkout page").click()
    page.wait_for_url(f"{servers.sandbox.url}/**")
    pay_on_checkout_page(page, servers, APPROVING_CARD)
    axe.check(page)
    screenshot(page, "customer-result")
    # the customer's page names no portal page; staff find the payment in the list
    expect(page.get_by_role("link", name="open this payment in the portal")).to_have_count(0)
    page.goto("/payments")
    page.locator("table a[href^='/payments/']").first.click()
    expect(page.locator("h1 .order-reference")).to_be_visible()
    act(page, "capture")
    act(page, "refund", "2000")
    form = page.locator("form.action--refund")
    form.get_by_label(re.compile("^Amount")).fill("12000")
    form.get_by_label(re.compile("^I confirm")).check()
    form.get_by_label("Reason, for the second admin").fill("Order returned; ticket SUP-208")
    form.locator("button[type=submit]").click()
    expect(page.locator("[data-field='status']")).to_have_text(
        "Partly refunded: 2,000 of 18,000 INR")
    expect(page.locator("[data-field='refundable']")).to_have_text("4,000 INR")
    screenshot(page, "payment-refund-waiting")
    second = second_admin(csrf_app)  # its session cookie, in the browser
    page.context.clear_cookies()
    cookie = second.get_cookie("session")
    page.context.add_cookies([{"name": "session", "value": cookie.value,
                               "url": servers.portal}])
    page.goto("/approvals/")
    card = page.locator("article.approval")
    expect(card.get_by_role("heading")).to_have_text("Large refund for Chai Point")
    expect(card.get_by_role("link", name="Chai Point")).to_be_visible()
    expect(card.locator(".approval__payment-status")).to_have_text(
        "Partly refunded: 2,000 of 18,000 INR")
    axe.check(page)
    screenshot(page, "approvals-card")
