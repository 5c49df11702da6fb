"""The credentials page in Chromium says what its terms mean (the kid, PEM, the credentials key)
and copies the MID, the kid and the public key with its buttons, under the strict CSP."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import Axe, Console, Servers, log_in, screenshot
from tests.payments.support import add_merchant

pytestmark = pytest.mark.browser


def test_the_credentials_are_explained_and_copied(page: Page, servers: Servers, auth, app,
                                                  axe: Axe, console: Console) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"],
                                   origin=servers.portal)
    merchant_id = add_merchant(app, "APPROVED")
    log_in(page, auth.create("admin"), app=app)
    page.goto(f"/merchants/{merchant_id}/payments/credentials")
    setup = page.locator(".credentials-form").locator("..")
    expect(setup).to_contain_text("the portal's credentials key (the CREDENTIALS_KEY setting")
    expect(page.locator("#kid-help")).to_contain_text("which public key checks the request's "
                                                      "signature")
    expect(page.locator("#private_key_pem-help")).to_contain_text(
        "PEM text, the whole block from its BEGIN line to its END line")
    page.get_by_role("button", name="Save credentials").click()
    current = page.locator(".current-credentials")
    expect(current).to_contain_text("(as its x-gl-kid header)")
    expect(current).to_contain_text("It is written as PEM text")

    pem = page.locator("#public-key").inner_text()
    assert pem.startswith("-----BEGIN PUBLIC KEY-----")
    page.get_by_role("button", name="Copy the public key").click()
    expect(current.locator(".copy-status").last).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()").strip() == pem.strip()
    page.get_by_role("button", name="Copy the key id").click()
    kid = page.locator("#credentials-kid").inner_text()
    assert page.evaluate("navigator.clipboard.readText()") == kid
    axe.check(page)
    screenshot(page, "payment-credentials")
    page.set_viewport_size({"width": 375, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert console.csp_violations == [] and console.errors == []
