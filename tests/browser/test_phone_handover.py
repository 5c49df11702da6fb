"""Continue on a phone, in headless Chromium: a computer without a camera hands the merchant's
verification over by QR code to a second browser (the phone), which finishes video KYC on
the sandbox's hosted page while the computer's page follows along; nothing serious for axe."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.support import TIMEOUT_MS, Axe, Servers, screenshot
from tests.support.chromium import allow_camera, answer_camera, click_through_verification
from tests.verification.support import merchant_link, onboard

pytestmark = pytest.mark.browser

IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 "
          "(KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1")


def test_a_computer_hands_over_by_qr_and_follows_the_phone_to_the_end(
        page: Page, chromium: Browser, servers: Servers, csrf_app, axe: Axe) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(merchant_link(csrf_app, onboard(csrf_app)))
    with page.expect_response(lambda r: "/check?" in r.url):
        answer_camera(page, "missing")
    expect(page.locator(".camera-check__result")).to_contain_text(
        "No camera was found on this device. Continue on your phone instead")
    axe.check(page)
    screenshot(page, "merchant-no-camera-phone-offer")
    page.get_by_role("button", name="Continue on my phone").click()

    code = page.locator(".phone-handover__code")
    expect(code.get_by_role("img", name="QR code of your link for your phone")).to_be_visible()
    state = page.locator("[data-role='state']")
    expect(state).to_have_text("Waiting for your phone: scan the code with its camera.")
    axe.check(page)
    page.set_viewport_size({"width": 375, "height": 740})
    axe.check(page)
    screenshot(page, "merchant-phone-code")
    handover = urlsplit(code.get_attribute("data-handover-url") or "")

    phone_context = chromium.new_context(base_url=servers.portal, user_agent=IPHONE,
                                         viewport={"width": 375, "height": 740})
    phone_context.set_default_timeout(TIMEOUT_MS)
    try:
        phone = phone_context.new_page()
        phone.goto(f"{handover.path}?{handover.query}")
        expect(phone).to_have_url(f"{servers.portal}/verify/" + handover.path.split("/")[2]
                                  + "?token=" + phone.url.split("token=")[1])
        expect(state).to_have_text("The link is open on your phone: carry on there. This page "
                                   "follows along.")
        allow_camera(phone)
        click_through_verification(phone.frame_locator("#verification-frame"))
        expect(phone.locator(".verification-result[data-state='confirmed']")).to_have_text(
            "Thank you: your verification is complete.")
        axe.check(phone)
    finally:
        phone_context.close()

    expect(state).to_have_text("Finished on your phone.", timeout=TIMEOUT_MS)
    expect(page.locator("[data-role='next']")).to_contain_text(
        "Thank you: your verification is complete.")
    expect(code).to_be_hidden()
    expect(page.locator(".phone-sms")).to_be_hidden()
    expect(page.get_by_role("button", name="Make a new code")).to_be_hidden()
    axe.check(page)
    page.set_viewport_size({"width": 1280, "height": 800})
    axe.check(page)
    screenshot(page, "merchant-phone-finished")


def test_sending_to_the_phone_shows_the_masked_number(page: Page, servers: Servers, csrf_app,
                                                      axe: Axe) -> None:
    page.goto(merchant_link(csrf_app, onboard(csrf_app)))
    page.get_by_role("button", name="Continue on my phone").click()
    page.get_by_role("button", name="Send to my phone").click()
    expect(page.locator(".phone-sms [role=status]")).to_contain_text(
        "We sent a text message to your phone number ending 3210")
    axe.check(page)
    screenshot(page, "merchant-phone-sms-sent")
