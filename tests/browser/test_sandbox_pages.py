"""The sandbox's own pages that people use, audited by axe-core on their own origin: the
verification page a merchant completes (framed in the portal) and the hosted checkout page a
customer pays on. No serious or critical finding."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.payment_steps import fill_hold_form
from tests.browser.support import Axe, Servers, log_in
from tests.payments.support import add_merchant
from tests.verification.support import onboard

pytestmark = pytest.mark.browser


def test_the_sandbox_verification_page_passes_axe(page: Page, servers: Servers, auth,
                                                 csrf_app, axe: Axe) -> None:
    merchant_id = onboard(csrf_app)
    log_in(page, auth.create("ops"))
    page.goto(f"/merchants/{merchant_id}/verification/session")
    frame = page.locator("#verification-frame")
    expect(page.frame_locator("#verification-frame").get_by_label(
        "I have read and accept the terms and conditions")).to_be_visible()
    source = frame.get_attribute("src") or ""
    assert source.startswith(servers.sandbox.url), source
    axe.check(page, source)


def test_the_sandbox_hosted_checkout_page_passes_axe(page: Page, servers: Servers, auth,
                                                    csrf_app, axe: Axe) -> None:
    merchant_id = add_merchant(csrf_app, "APPROVED")
    log_in(page, auth.create("admin"), app=csrf_app)
    page.goto(f"/merchants/{merchant_id}/payments/credentials")
    page.get_by_role("button", name="Save credentials").click()
    expect(page.locator(".current-credentials")).to_be_visible()
    page.goto(f"/merchants/{merchant_id}/payments/new")
    fill_hold_form(page)
    page.get_by_role("button", name="Create hold and go to the checkout page").click()
    page.wait_for_url(f"{servers.sandbox.url}/**")
    expect(page.get_by_role("button", name=re.compile(r"^Pay "))).to_be_visible()
    axe.check(page)
