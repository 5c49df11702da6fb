"""Recovery codes in Chromium: copied and downloaded from the page that shows them once, and
signing in with one says how many are left. Codes come from the portal's frozen clock."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pyotp import TOTP

from portal.core import clock
from tests.browser.support import TIMEOUT_MS, Axe, Console, Servers, log_in, screenshot
from tests.support.accounts import AuthActions

pytestmark = pytest.mark.browser


@pytest.fixture
def clipboard_page(chromium: Browser, servers: Servers) -> Page:
    """A tab that may read the clipboard (127.0.0.1 is a secure context)."""
    context = chromium.new_context(base_url=servers.portal, accept_downloads=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=servers.portal)
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def test_recovery_codes_are_copied_downloaded_and_counted(clipboard_page: Page, csrf_app,
                                                          servers: Servers, axe: Axe,
                                                          portal_clock, tmp_path: Path):
    page = clipboard_page
    console = Console()
    page.on("pageerror", lambda error: console.errors.append(str(error)))
    email = AuthActions(csrf_app, None).create("ops")
    log_in(page, email)
    page.goto("/account/authenticator")
    key = page.locator(".totp-key").inner_text()
    page.get_by_label("Code from the app").fill(TOTP(key).at(clock.utcnow()))
    page.get_by_role("button", name="Turn on two-step sign-in").click()
    expect(page.locator(".recovery-codes code")).to_have_count(10)
    codes = page.locator(".recovery-codes code").all_inner_texts()
    axe.check(page)
    screenshot(page, "recovery-codes")

    page.get_by_role("button", name="Copy the codes").click()
    expect(page.locator(".copy-status")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()").split() == codes
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the codes").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "recovery-codes.txt"
    text = saved.read_text()
    assert email in text and [line for line in text.splitlines() if line in codes] == codes

    page.get_by_role("link", name="I have saved them").click()
    page.get_by_role("button", name="Sign out").click()
    page.goto("/login")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill("correct horse battery staple")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Authentication code").fill(codes[3])
    page.get_by_role("button", name="Continue").click()
    expect(page.locator(".flash--warning")).to_contain_text(
        "You signed in with a recovery code: 9 are left.")
    expect(page.locator(".flash--warning")).to_contain_text(
        "ask an administrator to reset your two-step sign-in")
    assert console.errors == []
