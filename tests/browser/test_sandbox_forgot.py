"""What a person sees when the gateway forgot a merchant or refused a hold, in Chromium: the
status page words it plainly (no "no such record | HTTP 404"), and a hold that never reached
the gateway is discarded from its page. Each checked by axe."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.payment_steps import fill_hold_form, merchant_id
from tests.browser.support import Axe, Servers, log_in, screenshot
from tests.payments.support import credentials_row
from tests.support.keys import new_key_pair
from tests.verification.support import onboard

pytestmark = pytest.mark.browser
__all__ = ["merchant_id"]  # the approved merchant with credentials, an admin signed in


def test_a_merchant_the_gateway_forgot_is_worded_plainly(page: Page, servers: Servers, auth,
                                                         csrf_app, axe: Axe) -> None:
    merchant_id = onboard(csrf_app)
    servers.sandbox.state.reset()  # the sandbox's records wiped, the portal's kept
    log_in(page, auth.create("ops"))
    page.goto(f"/merchants/{merchant_id}/status")
    warning = page.locator(".gateway-unavailable")
    expect(warning).to_contain_text("The gateway no longer knows this merchant")
    expect(page.locator("main")).not_to_contain_text("no such record")
    expect(page.locator("main")).not_to_contain_text("HTTP 404")
    axe.check(page)
    screenshot(page, "status-gateway-forgot")


def test_a_refused_hold_is_discarded_from_its_page(page: Page, servers: Servers, csrf_app,
                                                   merchant_id: int, axe: Axe) -> None:
    mine = credentials_row(csrf_app, merchant_id)  # the gateway no longer takes its key
    servers.sandbox.payments.register_key(mine.mid, mine.kid, new_key_pair().public_pem)
    page.goto(f"/merchants/{merchant_id}/payments/new")
    fill_hold_form(page)
    page.get_by_role("button", name="Create hold and go to the checkout page").click()
    expect(page.locator(".flash--error, .form-errors, [role=alert]").first).to_contain_text(
        "refused the merchant's credentials")
    page.goto(f"/merchants/{merchant_id}/payments")
    page.locator("table a[href^='/payments/']").first.click()
    expect(page.locator("[data-field='status']")).to_have_text("Waiting for the gateway's answer")
    axe.check(page)
    screenshot(page, "payment-never-reached")
    form = page.locator("form.action--discard")
    form.get_by_label(re.compile("^I confirm")).check()
    form.get_by_role("button", name="Discard the hold").click()
    expect(page).to_have_url(re.compile(f"/merchants/{merchant_id}/payments$"))
    expect(page.locator(".flash--success")).to_contain_text("was discarded")
    expect(page.locator(".result-count")).to_have_text("0 payments")
    axe.check(page)
