"""The webhooks-out pages in Chromium: an endpoint refused beside its field, added with its
events ticked and its secret shown once, rotated; its delivery log after a delivery to a
loopback receiver, sent again; axe on each page, screenshots at 1280 and 375 px
(PORTAL_SCREENSHOTS)."""

from __future__ import annotations

import threading

import pytest
from playwright.sync_api import Page, expect

from portal.core.config import Settings
from portal.core.row_claims import LEASE
from portal.domain.partner_events.delivery import deliver_due
from tests.browser.support import Axe, Console, log_in, screenshot
from tests.support.accounts import AuthActions
from tests.support.partner_webhooks import move, receiving
from tests.support.team import make_merchant

pytestmark = pytest.mark.browser


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Loopback allowed, as in development, so the receiver can be an endpoint."""
    return settings.with_changes(website_check_allow_loopback=True)


def test_an_endpoint_is_added_rotated_and_its_log_sends_again(page: Page, app, axe: Axe,
                                                              console: Console) -> None:
    log_in(page, AuthActions(app, app.test_client()).create("admin"), app=app)
    page.goto("/admin/webhooks-out/")
    page.get_by_label("Address (URL)").fill("http://10.0.0.7/hooks")
    page.get_by_role("button", name="Add endpoint").click()
    expect(page.locator("#url-errors")).to_contain_text("not a public one")
    expect(page.locator("#event_types-errors")).to_contain_text("Choose at least one event")
    axe.check(page)
    screenshot(page, "webhooks-out-errors")

    with receiving() as receiver:
        page.get_by_label("Address (URL)").fill(receiver.url)
        page.get_by_label("What it is (optional)").fill("Stayhub booking engine")
        page.get_by_label("A merchant's onboarding status changed").check()
        page.get_by_label("A held payment was captured").check()
        page.get_by_role("button", name="Add endpoint").click()
        expect(page.locator("[data-secret]")).to_contain_text("whsec_")
        axe.check(page)
        screenshot(page, "webhooks-out-added")

        page.get_by_role("button", name="Rotate secret").click()
        expect(page.get_by_text("The previous secret still signs")).to_be_visible()
        axe.check(page)

        move(app, make_merchant(app, "Lotus Traders", status="PENDING_REVIEW"), "APPROVED")
        with app.app_context():
            deliver_due(True, LEASE, threading.Event())
        page.get_by_role("link", name="Delivery log").click()
        row = page.locator("table.partner-deliveries tbody tr").first
        expect(row.locator(".delivery-state")).to_contain_text("Delivered")
        expect(row.locator(".delivery-answer")).to_have_text("Taken (HTTP 200).")
        axe.check(page)
        row.get_by_role("button", name="Send again").click()
        expect(page.get_by_text("will be sent again")).to_be_visible()
        expect(page.locator("table.partner-deliveries tbody tr")).to_have_count(2)
        axe.check(page)
        screenshot(page, "webhooks-out-log")
    assert len(receiver.received) == 1
    assert console.csp_violations == [] and console.errors == []
