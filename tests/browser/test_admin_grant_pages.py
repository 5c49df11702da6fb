"""The pages of four eyes on the admin role and of a second factor bound to its session, in
Chromium: the team page's reason (empty and refused), the promotion page (a long email), the
Approvals page with a key's fingerprint and with an approver the asker added, the enrolment page
before and after its key was shown; axe on each, screenshots at 1280 and 375 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.core.db import db
from portal.domain.four_eyes.requests import request_portfolio_key
from portal.domain.users.accounts import find_user, set_password
from tests.approvals.support import a_pem
from tests.browser.support import Axe, Console, log_in, screenshot
from tests.support.accounts import TEST_PASSWORD, AuthActions, enrol_authenticator

pytestmark = pytest.mark.browser

LONG_EMAIL = ("priyadarshini.venkataraghavan.operations-lead"
              "@very-long-partner-subsidiary-name.example.co.in")


def test_team_promotion_and_approvals_pages(page: Page, app, axe: Axe, console: Console) -> None:
    asker = AuthActions(app, app.test_client()).create("admin")
    AuthActions(app, app.test_client()).create("admin", "second-admin@example.com")
    AuthActions(app, app.test_client()).create("ops", LONG_EMAIL)
    log_in(page, asker, app=app)

    page.goto("/admin/team")
    axe.check(page)
    screenshot(page, "team-empty")
    page.get_by_label("Email", exact=True).fill("new.admin@example.com")
    page.get_by_label("Role", exact=True).select_option("admin")
    page.get_by_role("button", name="Add to the team").click()
    expect(page.locator("#reason-errors")).to_contain_text("Say why")
    expect(page.get_by_label("Email", exact=True)).to_have_value("new.admin@example.com")
    axe.check(page)
    screenshot(page, "team-reason-missing")
    page.get_by_label("Why they need to be an administrator").fill("Runs the Delhi team")
    page.get_by_role("button", name="Add to the team").click()
    expect(page.locator(".flash--success")).to_contain_text("needs another administrator")
    screenshot(page, "team-asked")

    row = page.locator(f"tr[data-user='{LONG_EMAIL}']")
    row.get_by_label(f"Role of {LONG_EMAIL}").select_option("admin")
    row.get_by_role("button", name="Change").click()
    page.wait_for_url("**/promote")
    axe.check(page)
    screenshot(page, "promote-long-email")
    page.get_by_role("button", name="Ask for approval").click()
    expect(page.locator("#reason-errors")).to_be_visible()
    axe.check(page)
    screenshot(page, "promote-error")

    with app.app_context():
        request_portfolio_key("PARENT9", "kid-portfolio-9", a_pem(), False,
                              "The partner's existing portfolio key", find_user(asker).id)
    page.goto("/approvals/")
    expect(page.locator(".approval__fingerprint")).to_contain_text("kid-portfolio-9")
    axe.check(page)
    screenshot(page, "approvals-own")

    with app.app_context():  # an admin the asker added, signed in as its holder would
        added = AuthActions(app, app.test_client()).create("admin", "added@example.com")
        user = find_user(added)
        user.created_by_id = find_user(asker).id
        set_password(user, TEST_PASSWORD)
        db.session.commit()
    enrol_authenticator(app, added)
    page.get_by_role("button", name="Sign out").click()
    log_in(page, added, app=app)
    page.goto("/approvals/")
    card = page.locator(".approval").filter(has_text="Portfolio key")
    expect(card.get_by_role("button", name="Approve and carry out")).to_have_count(0)
    expect(card).to_contain_text("would not be a second person's")
    axe.check(page)
    screenshot(page, "approvals-vouched")
    assert console.errors == []


def test_enrolment_page_shows_its_key_once(page: Page, app, axe: Axe) -> None:
    email = AuthActions(app, app.test_client()).create("admin", "fresh.admin@example.com")
    with app.app_context():
        user = find_user(email)
        user.totp_secret = user.totp_enrolled_at = None
        db.session.commit()
    log_in(page, email)
    page.wait_for_url("**/account/authenticator")
    expect(page.locator(".totp-key")).to_be_visible()
    screenshot(page, "enrol-key")
    page.get_by_label("Code from the app").fill("000000")
    page.get_by_role("button", name="Turn on two-step sign-in").click()
    expect(page.locator("#code-errors")).to_contain_text("not right")
    expect(page.locator(".totp-key")).to_have_count(0)
    axe.check(page)
    screenshot(page, "enrol-wrong-code")
    page.goto("/account/authenticator")
    expect(page.locator(".totp-key")).to_have_count(0)
    page.get_by_role("button", name="Show a new key").click()
    expect(page.locator(".totp-key")).to_be_visible()
    axe.check(page)
