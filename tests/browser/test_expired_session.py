"""A Save and send after the session (or its CSRF token) expired loses nothing in Chromium: the
user signs in again and is back on the step with what they typed, then saves it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.core.db import db
from portal.core.models import HeldForm
from tests.browser.support import Axe, expect_sent, fill, log_in, screenshot, send

pytestmark = pytest.mark.browser

TYPED = "Asha Rao Kulkarni"


@pytest.fixture
def owners_typed(page: Page, sent_merchant, auth, portal_clock) -> str:
    """Signed in, on step 3 with a name typed but not saved; the user's email."""
    base = sent_merchant()
    email = auth.create("ops")
    log_in(page, email)
    page.goto(f"{base}/steps/owners")
    fill(page)
    page.locator("[name='owners-0-name']").fill(TYPED)
    return email


def sign_in_again_and_find_the_typing(page: Page, email: str, axe: Axe, shot: str) -> None:
    """The sign-in page says why; after it the step shows what was typed, then it is sent."""
    expect(page.locator(".flash--warning")).to_contain_text("nothing was saved")
    axe.check(page)
    screenshot(page, f"{shot}-login")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill("correct horse battery staple")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/steps/owners")
    expect(page.locator("[name='owners-0-name']")).to_have_value(TYPED)
    expect(page.locator(".flash--warning")).to_contain_text("what you typed")
    axe.check(page)
    screenshot(page, f"{shot}-restored")
    send(page)
    expect_sent(page, "owners")


def test_idle_past_the_timeout_then_send(page: Page, owners_typed: str, portal_clock,
                                         axe: Axe) -> None:
    portal_clock.advance(31 * 60)
    send(page)
    assert "/login" in page.url
    expect(page.locator(".flash--warning")).to_contain_text(
        "Your session ended after 30 idle minutes")
    sign_in_again_and_find_the_typing(page, owners_typed, axe, "idle")


def test_a_browser_without_its_cookie_has_nothing_held(page: Page, context, owners_typed: str,
                                                       csrf_app, axe: Axe) -> None:
    """The cookie outlives the idle timeout, so only a browser that lost it (cleared by hand)
    posts anonymously: such a post is never stored, and the next to sign in sees no typing."""
    context.clear_cookies()
    send(page)
    assert "/login" in page.url
    expect(page.locator(".flash--error")).to_contain_text(
        "your browser did not send your session")  # says what happened, not "30 idle minutes"
    expect(page.locator(".flash--error")).to_contain_text("could not be kept for you")
    with csrf_app.app_context():
        assert db.session.query(HeldForm).count() == 0
    axe.check(page)
    page.get_by_label("Email").fill(owners_typed)
    page.get_by_label("Password").fill("correct horse battery staple")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/steps/owners")
    expect(page.locator("[name='owners-0-name']")).not_to_have_value(TYPED)


def test_an_expired_csrf_token_in_a_live_session(page: Page, owners_typed: str, csrf_app,
                                                 axe: Axe) -> None:
    csrf_app.config["WTF_CSRF_TIME_LIMIT"] = -1  # every token is past its time limit
    send(page)
    csrf_app.config["WTF_CSRF_TIME_LIMIT"] = 3600
    assert page.url.endswith("/steps/owners")
    expect(page.locator("[name='owners-0-name']")).to_have_value(TYPED)
    expect(page.locator(".flash--warning").first).to_contain_text("nothing was saved")
    axe.check(page)
    send(page)
    expect_sent(page, "owners")


def test_a_post_from_another_site_is_not_held(page: Page, context, owners_typed: str) -> None:
    context.clear_cookies()
    context.set_extra_http_headers({"Origin": "http://evil.example"})
    send(page)
    context.set_extra_http_headers({})
    assert "/login" not in page.url  # the usual 400: nothing kept, nowhere to go back to
    expect(page.get_by_role("heading", level=1)).to_contain_text("could not be used")
