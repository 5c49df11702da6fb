"""The merchant's page ready for the camera, in headless Chromium, in English and in Hindi at
375 and 1280 px: a WhatsApp-like user agent is told to open the link in Chrome or Safari, and a
refused camera is said in words, kept, and shown to ops."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from portal.core.db import db
from portal.core.models import MerchantLinkCheck
from tests.browser.support import TIMEOUT_MS, Axe, Servers, log_in, screenshot
from tests.support.accounts import AuthActions
from tests.support.chromium import allow_camera, answer_camera
from tests.support.merchant_pages import WHATSAPP, read_in
from tests.verification.support import merchant_link, onboard

pytestmark = pytest.mark.browser


def _found(app) -> list[str]:
    with app.app_context():
        return [c.failed for c in db.session.scalars(
            select(MerchantLinkCheck).order_by(MerchantLinkCheck.id))]


#: What the pages say, in each language tested.
WORDS = {
    "en": {"inside": "You opened this link inside WhatsApp",
           "open": "Open this link in Chrome or Safari", "copy": "Copy link",
           "copied": "Copied.",
           "refused": "The camera or microphone was refused, so the video call cannot take place",
           "allow": "set Camera and Microphone to Allow"},
    "hi": {"inside": "आपने यह लिंक WhatsApp के अंदर खोला है।",
           "open": "यह लिंक Chrome या Safari में खोलें", "copy": "लिंक कॉपी करें",
           "copied": "कॉपी हो गया।",
           "refused": "कैमरा या माइक की इजाज़त नहीं दी गई, इसलिए video call नहीं हो सकती",
           "allow": "Camera और Microphone को Allow करें"},
}
#: Each language at a phone's width and a computer's.
SIZES = [pytest.param(code, width, id=f"{code}-{width}") for code in WORDS
         for width in (375, 1280)]


def _merchant_path(app, code: str) -> tuple[int, str]:
    merchant_id = onboard(app)
    read_in(app, merchant_id, code)
    return merchant_id, merchant_link(app, merchant_id)


@pytest.mark.parametrize(("code", "width"), SIZES)
def test_a_whatsapp_browser_is_told_to_open_the_link_in_chrome_or_safari(
        chromium: Browser, servers: Servers, csrf_app, axe: Axe, code: str, width: int) -> None:
    words = WORDS[code]
    _merchant_id, path = _merchant_path(csrf_app, code)
    context = chromium.new_context(base_url=servers.portal, user_agent=WHATSAPP,
                                   viewport={"width": width, "height": 740})
    context.set_default_timeout(TIMEOUT_MS)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", code)
        warning = page.locator(".in-app-warning")
        expect(warning).to_be_visible()
        expect(warning).to_contain_text(words["inside"])
        expect(warning.get_by_role("heading")).to_have_text(words["open"])
        warning.get_by_role("button", name=words["copy"]).click()
        expect(warning.locator(".copy-status")).to_have_text(words["copied"])
        assert page.evaluate("navigator.clipboard.readText()") == f"{servers.portal}{path}"
        expect(page.locator("#verification-frame")).to_be_hidden()
        axe.check(page)
        screenshot(page, f"merchant-in-app-warning-{code}")
    finally:
        context.close()
    assert _found(csrf_app) == ["in_app_browser"]


@pytest.mark.parametrize(("code", "width"), SIZES)
def test_a_refused_camera_is_said_in_words_and_ops_see_it(
        page: Page, servers: Servers, csrf_app, axe: Axe, code: str, width: int) -> None:
    words = WORDS[code]
    page.set_viewport_size({"width": width, "height": 800})
    merchant_id, path = _merchant_path(csrf_app, code)
    page.goto(path)
    screenshot(page, f"merchant-camera-check-{code}")
    with page.expect_response(lambda r: "/check?" in r.url) as reported:
        answer_camera(page, "block")
    assert reported.value.ok
    result = page.locator(".camera-check__result")
    expect(result).to_have_attribute("data-found", "camera_denied")
    expect(result).to_contain_text(words["refused"])
    expect(result).to_contain_text(words["allow"])
    expect(page.locator("#verification-frame")).to_be_hidden()
    assert page.locator("#verification-frame").get_attribute("src") is None
    axe.check(page)
    screenshot(page, f"merchant-camera-refused-{code}")
    assert _found(csrf_app) == ["opened", "camera_denied"]

    log_in(page, AuthActions(csrf_app, None).create("ops"))
    page.goto(f"/merchants/{merchant_id}/verification")
    latest = page.locator(".device-checks tbody tr").first
    expect(latest).to_contain_text("Camera or microphone refused")  # staff pages: English
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
