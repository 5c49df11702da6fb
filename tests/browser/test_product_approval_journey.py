"""Approval per product in Chromium, the sandbox speaking the gateway docs' dialect: a merchant
the gateway accepted for MCA but not yet for cards cannot take a hold, and the new-hold page
says why; a sandbox clock step later the cards acceptance arrives and the hold goes through. A
CARDSBLOCKED merchant's cards stay held up by a pendency, shown against the card products.
Each page is audited with axe at 1280 and 375 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.domain.onboarding import scenarios
from tests.browser.payment_steps import (
    approved_by_the_sandbox,
    fill_hold_form,
    pay_on_checkout_page,
    set_up_credentials,
)
from tests.browser.support import Axe, Servers, audit, log_in, screenshot
from tests.payments.support import APPROVING_CARD
from tests.support.sandbox import speak

pytestmark = pytest.mark.browser

#: The sandbox's wait between the MCA acceptance and the cards one (its config's default).
CARDS_LATER = 60
INTERNATIONAL = "tr.product[data-product='INTERNATIONAL_CARDS_AND_ALT_PAYS']"
GFT = "tr.product[data-product='GLOBAL_FUND_TRANSFER']"


def test_accepted_for_mca_first_then_cards_a_step_later(page: Page, servers: Servers, auth,
                                                        csrf_app, axe: Axe) -> None:
    speak(servers.sandbox, "docs")
    merchant_id = approved_by_the_sandbox(csrf_app, servers, scenarios.EVERY_PRODUCT)
    log_in(page, auth.create("admin"), app=csrf_app)

    page.goto(f"/merchants/{merchant_id}/status")
    expect(page.locator(".onboarding-status")).to_have_attribute("data-status", "APPROVED")
    expect(page.locator(GFT)).to_have_attribute("data-standing", "accepted")
    expect(page.locator(INTERNATIONAL)).to_have_attribute("data-standing", "waiting")
    expect(page.locator(INTERNATIONAL)).to_contain_text(
        "International cards and alternative payments")
    expect(page.locator(".next-step")).to_contain_text("Approved, but no card holds yet.")
    audit(page, axe)
    screenshot(page, "products-status-mca-first")

    set_up_credentials(page, merchant_id)  # possible before the cards approval
    expect(page.locator(".gateway-ids")).to_contain_text("UCIC id")
    expect(page.locator(".confirm-mid")).to_contain_text(
        "confirm the MID with the gateway before the first live payment")
    audit(page, axe)
    screenshot(page, "products-credentials-both-ids")

    page.goto(f"/merchants/{merchant_id}/payments/new")
    expect(page.locator(".unavailable")).to_contain_text(
        "accepted this merchant for the multi-currency account (MCA) but not yet for cards")
    expect(page.locator("form.hold-form")).to_have_count(0)
    audit(page, axe)
    screenshot(page, "products-new-hold-refused-for-cards")

    servers.sandbox.clock.advance(CARDS_LATER)
    servers.onboarding.tick()  # MERCHANT_CARDS_ACCEPTED reaches the portal
    page.goto(f"/merchants/{merchant_id}/payments/new")
    expect(page.locator(".unavailable")).to_have_count(0)
    fill_hold_form(page)
    page.get_by_role("button", name="Create hold and go to the checkout page").click()
    page.wait_for_url(f"{servers.sandbox.url}/**")
    pay_on_checkout_page(page, servers, APPROVING_CARD)
    page.goto(f"/merchants/{merchant_id}/status")
    expect(page.locator(INTERNATIONAL)).to_have_attribute("data-standing", "accepted")
    audit(page, axe)


def test_cards_held_up_by_a_pendency_are_shown_against_the_card_products(
        page: Page, servers: Servers, auth, csrf_app, axe: Axe) -> None:
    speak(servers.sandbox, "docs")
    merchant_id = approved_by_the_sandbox(csrf_app, servers, scenarios.CARDS_BLOCKED)
    log_in(page, auth.create("admin"), app=csrf_app)
    page.goto(f"/merchants/{merchant_id}/status")
    expect(page.locator(f"{INTERNATIONAL} .held-up")).to_contain_text(
        "An open pendency: Compliance review: Website policies")
    expect(page.locator(f"{GFT} .held-up")).to_have_text("Nothing")
    expect(page.locator("tr.pendency .reason q.gateway-words")).to_contain_text(
        "refund and cancellation policies")
    audit(page, axe)
    screenshot(page, "products-status-cards-blocked")

    page.goto(f"/merchants/{merchant_id}")
    expect(page.locator(f"{INTERNATIONAL} .held-up")).to_contain_text("Website policies")
    expect(page.locator(".payments-reason")).to_contain_text("holding up this merchant's cards")
    audit(page, axe)
    screenshot(page, "products-summary-cards-blocked")

    set_up_credentials(page, merchant_id)
    page.goto(f"/merchants/{merchant_id}/payments/new")
    expect(page.locator(".unavailable")).to_contain_text(
        "an open pendency holding up this merchant's cards approval")
    audit(page, axe)
    screenshot(page, "products-new-hold-refused-pendency")
