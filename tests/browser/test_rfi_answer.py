"""An RFI answered through the merchant's own link, in headless Chromium at 375 px with axe
(issue 39.6), in English and in Hindi: the merchant uploads the document asked for, ops refuse
it with a reason the merchant then reads (a refusal without one comes back on its own page,
the error beside it), ops word the ask in the merchant's language, the merchant uploads
again, ops send it from the
merchant's page, and the sandbox's review moves on."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from portal.gateway.onboarding.vocabulary import OnboardingStatus
from tests.asks.support import PDF, asked_by_services, status_read
from tests.browser.support import TIMEOUT_MS, Axe, Servers, log_in, screenshot
from tests.support.accounts import AuthActions
from tests.verification.support import merchant_link, onboard

pytestmark = pytest.mark.browser
PHONE = {"width": 375, "height": 800}
#: What the merchant reads, per language: the ask, and each state after it.
WORDS = {
    "en": {"ask": "A recent statement of your business bank account",
           "waiting": "Received, thank you.", "refused": "could not use the file you sent",
           "sent": "Received and passed on.", "own": "Every page of your March bank statement"},
    "hi": {"ask": "आपके व्यवसाय के बैंक खाते का हाल का स्टेटमेंट", "waiting": "मिल गया, धन्यवाद।",
           "refused": "आपकी भेजी हुई फ़ाइल का उपयोग नहीं कर सका", "sent": "मिल गया और आगे भेज दिया गया।",
           "own": "मार्च के बैंक स्टेटमेंट के सारे पेज"},
}
#: The field of ops' own wording in each language.
WORDING_FIELD = {"en": "What the merchant reads, in English",
                 "hi": "What the merchant reads, in Hindi (हिन्दी)"}
REASON = "The statement is cut off at the bottom: please send every page."


def _upload(page: Page, tmp_path, name: str) -> None:
    """Choose a PDF for the ask on the merchant's page and send it."""
    file = tmp_path / name
    file.write_bytes(PDF)
    page.locator("form.ask__form input[type=file]").set_input_files(str(file))
    page.locator("form.ask__form button[type=submit]").click()


@pytest.mark.parametrize("language", ["en", "hi"])
def test_the_merchant_answers_on_the_link_and_ops_send_it(page: Page, chromium: Browser,
                                                          servers: Servers, csrf_app, axe: Axe,
                                                          tmp_path, language: str) -> None:
    words = WORDS[language]
    page.set_viewport_size(PHONE)
    page.goto(merchant_link(csrf_app, onboard(csrf_app)))  # nothing asked
    if language == "hi":
        page.locator(".language-switch button[lang=hi]").click()
    expect(page.locator("#camera-check")).to_be_visible()
    expect(page.locator("section.asks")).to_have_count(0)
    screenshot(page, f"merchant-asks-none-{language}")

    merchant_id = asked_by_services(csrf_app, servers.onboarding)
    page.goto(merchant_link(csrf_app, merchant_id))
    if language == "hi":
        page.locator(".language-switch button[lang=hi]").click()
    ask = page.locator("li.ask")
    expect(ask.locator(".ask__words")).to_have_text(words["ask"])
    expect(ask).to_have_attribute("data-state", "asked")
    axe.check(page)
    screenshot(page, f"merchant-asks-asked-{language}")
    _upload(page, tmp_path, "statement.pdf")
    expect(ask).to_have_attribute("data-state", "waiting")
    expect(ask.locator(".ask__state")).to_contain_text(words["waiting"])
    axe.check(page)
    screenshot(page, f"merchant-asks-waiting-{language}")

    ops_context = chromium.new_context(base_url=servers.portal, viewport=PHONE)
    ops_context.set_default_timeout(TIMEOUT_MS)
    ops = ops_context.new_page()
    try:
        log_in(ops, AuthActions(csrf_app, None).create("ops"), app=csrf_app)
        ops.goto(f"/merchants/{merchant_id}")
        panel = ops.locator("section.asks")
        expect(panel.locator(".ask__state")).to_have_text(
            "Received from the merchant, waiting for review")
        axe.check(ops)
        screenshot(ops, "ops-asks-waiting")
        panel.get_by_role("button", name="Refuse").click()  # no reason: its own page
        reason = ops.get_by_label("Why, in words for the merchant")
        expect(reason).to_have_attribute("aria-invalid", "true")
        expect(ops.locator(".field__errors")).to_contain_text("Say why")
        axe.check(ops)
        screenshot(ops, "ops-asks-refuse-error")
        reason.fill(REASON)
        ops.get_by_role("button", name="Refuse").click()
        expect(ops.locator(".flash--success")).to_contain_text("Refused")

        wording = panel.locator("form.ask__words-form").get_attribute("action") or ""
        ops.goto(wording)  # the page a refused wording comes back on
        expect(ops.locator("h1")).to_have_text("The wording of Bank statement")
        axe.check(ops)
        screenshot(ops, "ops-asks-wording")
        ops.goto(f"/merchants/{merchant_id}")
        panel.locator("details.ask__wording summary").click()
        panel.get_by_label(WORDING_FIELD[language]).fill(words["own"])
        panel.get_by_role("button", name="Save the wording").click()
        expect(ops.locator(".flash--success")).to_contain_text("The wording of Bank statement")

        page.reload()
        expect(ask).to_have_attribute("data-state", "refused")
        expect(ask.locator(".ask__state")).to_contain_text(words["refused"])
        expect(ask.locator(".ask__reason")).to_have_text(REASON)
        expect(ask.locator(".ask__words")).to_have_text(words["own"])  # ops' own, their language
        axe.check(page)
        screenshot(page, f"merchant-asks-refused-{language}")
        _upload(page, tmp_path, "statement-whole.pdf")
        expect(ask).to_have_attribute("data-state", "waiting")

        ops.reload()
        assert status_read(csrf_app, merchant_id) == OnboardingStatus.RFI
        panel.get_by_role("button", name="Send to the gateway").click()
        expect(ops.locator(".flash--success")).to_contain_text(
            "Bank statement sent to the gateway.")
        expect(panel.locator(".ask__state")).to_have_text("Sent to the gateway")
        axe.check(ops)
        screenshot(ops, "ops-asks-sent")
    finally:
        ops_context.close()
    assert status_read(csrf_app, merchant_id) == OnboardingStatus.PENDING_REVIEW

    page.reload()
    expect(ask).to_have_attribute("data-state", "sent")
    expect(ask.locator(".ask__state")).to_contain_text(words["sent"])
    expect(page.locator("form.ask__form")).to_have_count(0)
    axe.check(page)
    screenshot(page, f"merchant-asks-sent-{language}")
