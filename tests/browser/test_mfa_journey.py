"""Two-step sign-in in Chromium: the first admin's one-time password leads into enrolment
(QR code, first code, recovery codes shown once); then sign-ins with a wrong code, a right code
and a recovery code that works once. Codes come from the portal's frozen clock, never a sleep."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pyotp import TOTP

from portal.core import clock
from portal.domain.users.accounts import DEFAULT_ADMIN_EMAIL
from tests.browser.support import Axe, Console, Servers
from tests.support.accounts import wrong_code

pytestmark = pytest.mark.browser

NEW_PASSWORD = "a much longer passphrase of mine"
STEP_SECONDS = 30


def one_time_admin(runner) -> str:
    """Create the first admin from the command line; its printed one-time password."""
    output = runner.invoke(args=["users", "ensure-admin"]).output
    return re.search(r"One-time password \(shown once\): (\S+)", output).group(1)


def password_step(page: Page, password: str) -> None:
    """Sign in as the first admin up to the page after the password."""
    page.goto("/login")
    page.get_by_label("Email").fill(DEFAULT_ADMIN_EMAIL)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: not url.endswith("/login"))


def type_code(page: Page, code: str) -> None:
    """Answer the code page."""
    page.get_by_label("Authentication code").fill(code)
    page.get_by_role("button", name="Continue").click()
    page.wait_for_load_state()


def sign_out(page: Page) -> None:
    """Press the header's sign-out button."""
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/login")


def test_first_admin_enrols_then_signs_in_with_codes(page: Page, servers: Servers, axe: Axe,
                                                    runner, portal_clock,
                                                    console: Console) -> None:
    one_time = one_time_admin(runner)
    password_step(page, one_time)
    page.wait_for_url("**/account/password")
    page.get_by_label("Current password").fill(one_time)
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password again").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Change password").click()

    page.wait_for_url("**/account/authenticator")
    expect(page.get_by_role("img", name=re.compile("QR code"))).to_be_visible()
    axe.check(page)
    key = page.locator(".totp-key").inner_text()
    page.get_by_label("Code from the app").fill(wrong_code(TOTP(key).at(clock.utcnow())))
    page.get_by_role("button", name="Turn on two-step sign-in").click()
    expect(page.locator("#code-errors")).to_contain_text("not right")
    page.get_by_label("Code from the app").fill(TOTP(key).at(clock.utcnow()))
    page.get_by_role("button", name="Turn on two-step sign-in").click()
    expect(page.locator(".recovery-codes code")).to_have_count(10)
    recovery = page.locator(".recovery-codes code").all_inner_texts()
    assert len(recovery) == 10
    axe.check(page)
    page.get_by_role("link", name="I have saved them").click()
    page.wait_for_url("**/merchants")
    page.goto("/account/authenticator")
    expect(page.locator(".totp-key")).to_have_count(0)  # the key is never shown again
    sign_out(page)

    portal_clock.advance(STEP_SECONDS)  # the enrolment's code cannot be used again
    password_step(page, NEW_PASSWORD)
    page.wait_for_url("**/login/code")
    axe.check(page)
    type_code(page, wrong_code(TOTP(key).at(clock.utcnow())))
    expect(page.locator("#code-errors")).to_contain_text("not right")
    assert page.url.endswith("/login/code")
    type_code(page, TOTP(key).at(clock.utcnow()))
    page.wait_for_url("**/merchants")
    sign_out(page)

    password_step(page, NEW_PASSWORD)
    type_code(page, recovery[0])
    page.wait_for_url("**/merchants")
    sign_out(page)
    password_step(page, NEW_PASSWORD)
    type_code(page, recovery[0])
    expect(page.locator("#code-errors")).to_contain_text("not right")
    type_code(page, recovery[1])
    page.wait_for_url("**/merchants")
    page.goto("/account/authenticator")
    expect(page.get_by_text("8 of your recovery codes are left")).to_be_visible()
    assert console.csp_violations == [] and console.errors == []
