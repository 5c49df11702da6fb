"""Chromium steps to a merchant the gateway has decided on: verified in the framed page, then
reviewed by the sandbox."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.browser.support import Servers
from tests.support.chromium import click_through_verification
from tests.verification.support import onboard


def reviewed(page: Page, servers: Servers, app, scenario: str) -> int:
    """A merchant of ``scenario`` verified in the browser and reviewed by the sandbox (whose
    webhook reaches the portal); the merchant's id, the status page open."""
    merchant_id = onboard(app, scenario)
    page.goto(f"/merchants/{merchant_id}/verification/session")
    click_through_verification(page.frame_locator("#verification-frame"))
    page.locator(".verification-result[data-state='confirmed']").wait_for()
    servers.onboarding.tick()
    page.goto(f"/merchants/{merchant_id}/status")
    return merchant_id
