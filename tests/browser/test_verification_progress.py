"""The verification page's progress comes from the gateway's status read, in Chromium: no
"Waiting" beside a confirmed status, and the page says what happens next."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import Axe, Servers, log_in, screenshot
from tests.support.chromium import click_through_verification
from tests.verification.support import onboard

pytestmark = pytest.mark.browser


def progress(page: Page) -> dict[str, str]:
    """The progress list: step -> its pill's text."""
    return page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('.verification-progress__step')]
          .map((li) => [li.dataset.step, li.querySelector('span').textContent]))""")


def test_steps_done_in_an_earlier_visit_are_not_shown_waiting(page: Page, servers: Servers,
                                                             auth, csrf_app, axe: Axe) -> None:
    merchant_id = onboard(csrf_app)
    log_in(page, auth.create("ops"))
    url = f"/merchants/{merchant_id}/verification/session"
    page.goto(url)
    click_through_verification(page.frame_locator("#verification-frame"), pass_video_kyc=False)
    page.goto(url)  # a later visit: a fresh link, the page resumes at video KYC
    page.frame_locator("#verification-frame").get_by_role("button",
                                                          name="Pass video KYC").click()
    result = page.locator(".verification-result[data-state='confirmed']")
    expect(result).to_contain_text("Pending review")
    assert progress(page) == {"TNC": "Done", "DIGILOCKER": "Done", "VKYC": "Done"}
    expect(page.locator(".verification-next")).to_contain_text(
        "compliance team now reviews the merchant")
    screenshot(page, "verification-confirmed")
    axe.check(page)
