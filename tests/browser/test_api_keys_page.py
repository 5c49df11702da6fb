"""The API keys page and the API's reference page in Chromium: a key created with its token
shown once, the form's errors beside their fields, a key revoked; axe on each page,
screenshots at 1280 and 375 px (PORTAL_SCREENSHOTS)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import Axe, Console, log_in, screenshot
from tests.support.accounts import AuthActions

pytestmark = pytest.mark.browser


def test_a_key_is_created_shown_once_and_revoked(page: Page, app, axe: Axe,
                                                 console: Console) -> None:
    log_in(page, AuthActions(app, app.test_client()).create("admin"), app=app)
    page.goto("/admin/api-keys/")
    page.get_by_role("button", name="Create key").click()
    expect(page.locator("#name-errors")).to_contain_text("Give the key a name")
    expect(page.locator("#scopes-errors")).to_contain_text("Choose at least one")
    axe.check(page)
    screenshot(page, "api-keys-errors")

    page.get_by_label("Name").fill("Stayhub booking engine")
    page.get_by_label("Read merchants").check()
    page.get_by_role("button", name="Create key").click()
    token = page.locator("[data-token]").inner_text()
    assert token.startswith("pop_")
    axe.check(page)
    screenshot(page, "api-keys-created")

    page.goto("/admin/api-keys/")
    expect(page.locator("[data-token]")).to_have_count(0)
    row = page.locator('tr[data-key="Stayhub booking engine"]')
    expect(row.locator(".key-state")).to_have_text("Active")
    row.get_by_role("button", name="Revoke").click()
    expect(row.locator(".key-state")).to_contain_text("Revoked")
    axe.check(page)

    page.goto("/api/v1/")
    expect(page.locator("section.api-operation").first).to_be_visible()
    axe.check(page)
    screenshot(page, "api-reference")
    assert console.csp_violations == [] and console.errors == []
