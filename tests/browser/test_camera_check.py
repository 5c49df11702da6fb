"""The merchant's page ready for the camera, in headless Chromium: a WhatsApp-like user agent is
told to open the link in Chrome or Safari, and a refused camera is said in words, kept, and
shown to ops."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from portal.core.db import db
from portal.core.models import MerchantLinkCheck
from tests.browser.support import TIMEOUT_MS, Axe, Servers, log_in, screenshot
from tests.support.accounts import AuthActions
from tests.support.chromium import allow_camera, answer_camera
from tests.support.merchant_pages import WHATSAPP
from tests.verification.support import merchant_link, onboard

pytestmark = pytest.mark.browser


def _found(app) -> list[str]:
    with app.app_context():
        return [c.failed for c in db.session.scalars(
            select(MerchantLinkCheck).order_by(MerchantLinkCheck.id))]


def test_a_whatsapp_browser_is_told_to_open_the_link_in_chrome_or_safari(
        chromium: Browser, servers: Servers, csrf_app, axe: Axe) -> None:
    path = merchant_link(csrf_app, onboard(csrf_app))
    context = chromium.new_context(base_url=servers.portal, user_agent=WHATSAPP,
                                   viewport={"width": 375, "height": 740})
    context.set_default_timeout(TIMEOUT_MS)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        page.goto(path)
        warning = page.locator(".in-app-warning")
        expect(warning).to_be_visible()
        expect(warning).to_contain_text("You opened this link inside WhatsApp")
        expect(warning.get_by_role("heading")).to_have_text("Open this link in Chrome or Safari")
        warning.get_by_role("button", name="Copy link").click()
        expect(warning.locator(".copy-status")).to_have_text("Copied.")
        assert page.evaluate("navigator.clipboard.readText()") == f"{servers.portal}{path}"
        expect(page.locator("#verification-frame")).to_be_hidden()
        axe.check(page)
        screenshot(page, "merchant-in-app-warning")
    finally:
        context.close()
    assert _found(csrf_app) == ["in_app_browser"]


def test_a_refused_camera_is_said_in_words_and_ops_see_it(page: Page, servers: Servers,
                                                          csrf_app, axe: Axe) -> None:
    merchant_id = onboard(csrf_app)
    page.goto(merchant_link(csrf_app, merchant_id))
    screenshot(page, "merchant-camera-check")
    with page.expect_response(lambda r: "/check?" in r.url) as reported:
        answer_camera(page, "block")
    assert reported.value.ok
    result = page.locator(".camera-check__result")
    expect(result).to_have_attribute("data-found", "camera_denied")
    expect(result).to_contain_text("The camera or microphone was refused, so the video call "
                                   "cannot take place")
    expect(result).to_contain_text("set Camera and Microphone to Allow")
    expect(page.locator("#verification-frame")).to_be_hidden()
    assert page.locator("#verification-frame").get_attribute("src") is None
    axe.check(page)
    screenshot(page, "merchant-camera-refused")
    assert _found(csrf_app) == ["opened", "camera_denied"]

    log_in(page, AuthActions(csrf_app, None).create("ops"))
    page.goto(f"/merchants/{merchant_id}/verification")
    latest = page.locator(".device-checks tbody tr").first
    expect(latest).to_contain_text("Camera or microphone refused")
    expect(latest).to_contain_text("Computer")


def test_an_allowed_camera_loads_the_frame(page: Page, servers: Servers, csrf_app) -> None:
    page.goto(merchant_link(csrf_app, onboard(csrf_app)))
    allow_camera(page)
    expect(page.locator(".camera-check__result")).to_have_text(
        "Your camera and microphone work. The verification starts below.")
    assert page.evaluate("window.cameraStopped") is True  # the check let go of the camera
    page.frame_locator("#verification-frame").get_by_role(
        "heading", name="Merchant verification").wait_for()
    screenshot(page, "merchant-camera-ready")
