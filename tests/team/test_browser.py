"""The team page in headless Chromium: add a user, copy their one-time password, deactivate
and reactivate them; the merchant link's copy button; the emailed confirmation of a second
administrator."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from portal.app.factory import create_app
from portal.core.config import Settings, current_settings
from portal.domain.users.accounts import authenticate, find_user
from portal.features.team.admin_confirmation import hold
from tests.browser.support import log_in
from tests.support.accounts import AuthActions
from tests.support.chromium import missing
from tests.support.mail import link_in
from tests.support.servers import serve
from tests.verification.support import onboard

pytestmark = pytest.mark.browser
TIMEOUT_MS = 15_000
AXE = Path(__file__).resolve().parents[1] / "assets" / "vendor" / "axe.min.js"


@pytest.fixture
def portal_url(csrf_app) -> Iterator[str]:
    """The portal with CSRF on, served on loopback."""
    csrf_app.config["SESSION_COOKIE_SECURE"] = False
    with serve(csrf_app) as url:
        yield url


@pytest.fixture
def context(chromium: Browser, portal_url: str) -> Iterator[BrowserContext]:
    """A fresh profile that may use the clipboard (127.0.0.1 is a secure context)."""
    ctx = chromium.new_context(base_url=portal_url)
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=portal_url)
    ctx.set_default_timeout(TIMEOUT_MS)
    try:
        yield ctx
    finally:
        ctx.close()


def _sign_in(page: Page, app, email: str) -> None:
    log_in(page, email, app=app)
    expect(page.locator(".account__who")).to_contain_text(email)


def test_add_copy_deactivate_and_reactivate_a_user(csrf_app, context: BrowserContext):
    admin = AuthActions(csrf_app, None).create("admin")
    page = context.new_page()
    _sign_in(page, csrf_app, admin)
    page.click("text=Team")
    expect(page.locator("h1")).to_have_text("Team")
    page.fill("#email", "new.person@example.com")
    page.select_option("#role", "ops")
    page.uncheck("#invite")
    page.click("text=Add to the team")
    password = page.input_value("#one-time-password")
    assert len(password) >= 20
    page.click("button[data-copy='one-time-password']")
    expect(page.locator(".copy-status")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == password
    with csrf_app.app_context():
        assert authenticate("new.person@example.com", password, "127.0.0.1") is not None

    page.click("text=Back to the team")
    row = page.locator("tr[data-user='new.person@example.com']")
    expect(row.locator(".user-state")).to_contain_text("Invited")
    row.get_by_role("link", name="Deactivate new.person@example.com").click()
    expect(page.locator("h1")).to_have_text("Deactivate new.person@example.com?")
    page.get_by_role("link", name="Cancel").click()
    expect(row.locator(".user-state")).to_contain_text("Invited")  # never signed in
    row.get_by_role("link", name="Deactivate new.person@example.com").click()
    page.get_by_role("button", name="Deactivate").click()
    expect(page.locator(".flash--success")).to_have_text("new.person@example.com was deactivated.")
    expect(row.locator(".user-state")).to_contain_text("Deactivated")
    row.get_by_role("button", name="Reactivate new.person@example.com").click()
    expect(page.locator(".flash--success")).to_have_text("new.person@example.com was reactivated.")
    expect(row.locator(".user-state")).to_contain_text("Invited")


def test_the_merchant_link_copy_button(csrf_app, context: BrowserContext):
    ops = AuthActions(csrf_app, None).create("ops")
    merchant_id = onboard(csrf_app)
    page = context.new_page()
    _sign_in(page, csrf_app, ops)
    page.goto(f"/merchants/{merchant_id}/verification")
    page.click("text=Create a link to copy")
    url = page.input_value("#merchant-link-url")
    assert f"/verify/{merchant_id}?token=" in url
    page.click("text=Copy link")
    expect(page.locator(".new-link .copy-status")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == url


def test_the_new_pages_have_no_serious_accessibility_issues(chromium: Browser, csrf_app,
                                                            portal_url: str):
    if not AXE.exists():
        missing(f"{AXE} is missing: run scripts/vendor-axe.sh (scripts/test.sh does)")
    AuthActions(csrf_app, None).create("ops")
    admin = AuthActions(csrf_app, None).create("admin")
    ctx = chromium.new_context(base_url=portal_url, bypass_csp=True)
    ctx.add_init_script(path=str(AXE))
    try:
        page = ctx.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto("/password/forgot")
        with page.expect_navigation():  # axe on a page mid-navigation finds no document
            page.click("#submit")  # the empty field's error shown
        pages = [_axe_blocking(page)]
        _sign_in(page, csrf_app, admin)
        for path in ("/admin/team", "/admin/emails", "/admin/emails/merchant_link"):
            page.goto(path)
            pages.append(_axe_blocking(page))
        page.goto("/admin/team")
        page.fill("#email", "not an email")
        with page.expect_navigation():
            page.click("text=Add to the team")
        pages.append(_axe_blocking(page))
    finally:
        ctx.close()
    assert [issue for found in pages for issue in found] == []


def test_the_emailed_confirmation_confirms_a_second_admin(chromium: Browser, settings: Settings,
                                                           mail_sink):
    if not AXE.exists():
        missing(f"{AXE} is missing: run scripts/vendor-axe.sh (scripts/test.sh does)")
    app = create_app(settings.with_changes(admin_confirmation_email="security@partner.example"))
    app.config["SESSION_COOKIE_SECURE"] = False
    AuthActions(app, None).create("admin")
    with app.app_context():
        hold(current_settings(), "new.admin@example.com", None, False, "Covers the night shift",
             find_user("admin@example.com"))
    link = link_in(mail_sink.messages()[0])
    with serve(app) as url:
        ctx = chromium.new_context(base_url=url, bypass_csp=True)
        ctx.add_init_script(path=str(AXE))
        try:
            page = ctx.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(link)
            expect(page.locator(".asker")).to_have_text("admin@example.com")
            expect(page.locator(".reason")).to_have_text("Covers the night shift")
            pages = [_axe_blocking(page)]
            with page.expect_navigation():
                page.get_by_role("button", name="Confirm").click()
            expect(page.locator("h1")).to_have_text("Confirmed")
            pages.append(_axe_blocking(page))
            page.goto(link)
            expect(page.locator("h1")).to_have_text("This link cannot be used")
            pages.append(_axe_blocking(page))
        finally:
            ctx.close()
    assert [issue for found in pages for issue in found] == []
    with app.app_context():
        assert find_user("new.admin@example.com").role == "admin"


def _axe_blocking(page: Page) -> list[str]:
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [f"{page.url}: {v['id']} ({v['impact']}): {v['help']}" for v in result["violations"]
            if v["impact"] in ("serious", "critical")]
