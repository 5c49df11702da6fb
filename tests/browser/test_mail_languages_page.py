"""A merchant email's editing page in Chromium (issue 39): the admin chooses Hindi, a text
without its link is refused beside the body with what was typed kept, the Hindi text is saved
while English stays built-in, and restored; a team email has no choice. axe on each state, none
wider than a 375 px phone; ``PORTAL_SCREENSHOTS`` saves each at 1280 and 375 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import Axe, Console, Widths, log_in, screenshot
from tests.support.accounts import AuthActions

pytestmark = pytest.mark.browser

EDIT = "/admin/emails/merchant_link"
NO_LINK = "नमस्ते $signatory_name,\n\n$business_name का वेरिफ़िकेशन बाकी है।\n\n$partner_name"
WITH_LINK = ("नमस्ते $signatory_name,\n\n$business_name का वेरिफ़िकेशन बाकी है। यह लिंक "
             "खोलें:\n\n$link\n\nयह $expires_at तक चलेगा।\n\n$partner_name")


def _state(page: Page, code: str):
    return page.locator(f'.language-choice [data-language="{code}"] .language-choice__state')


def test_the_hindi_text_is_chosen_refused_saved_and_restored(page: Page, app, axe: Axe,
                                                             console: Console) -> None:
    log_in(page, AuthActions(app, app.test_client()).create("admin"), app=app)
    widths = Widths(page)
    page.goto(EDIT)
    choice = page.get_by_role("navigation", name="Language you edit")
    expect(choice.get_by_role("link", name="English")).to_have_attribute("aria-current", "page")
    axe.check(page)
    screenshot(page, "mail-language-english-built-in")

    choice.get_by_role("link", name="हिन्दी (Hindi)").click()
    expect(page.get_by_label("Subject")).to_have_value("$business_name का वेरिफ़िकेशन पूरा करें")
    expect(page.get_by_label("Body")).to_have_attribute("lang", "hi")
    axe.check(page)
    screenshot(page, "mail-language-hindi-built-in")

    page.get_by_label("Body").fill(NO_LINK)
    page.get_by_role("button", name="Save the Hindi text").click()
    expect(page.locator("#body-errors")).to_have_text(
        "The body must contain $link, or the merchant cannot open the verification page.")
    expect(page.get_by_label("Body")).to_have_value(NO_LINK)
    expect(choice.get_by_role("link", name="हिन्दी (Hindi)")).to_have_attribute(
        "aria-current", "page")
    axe.check(page)
    widths.measure("mail-language-hindi-error")

    page.get_by_label("Body").fill(WITH_LINK)
    page.get_by_role("button", name="Save the Hindi text").click()
    expect(page.locator(".flash--success")).to_have_text(
        "The Hindi text of 'Verification link sent on request' was saved.")
    expect(_state(page, "hi")).to_contain_text("Changed by admin@example.com on ")
    expect(_state(page, "en")).to_have_text("Built-in text")
    page.get_by_text("The built-in Hindi text", exact=True).click()
    axe.check(page)
    widths.measure("mail-language-hindi-changed")

    page.goto("/admin/emails")
    card = page.locator('[data-template="merchant_link"]')
    expect(card.locator('[data-language="hi"]')).to_contain_text("Changed by an admin")
    expect(card.locator('[data-language="en"]')).to_contain_text("Built-in text")
    axe.check(page)
    widths.measure("mail-language-index")

    card.locator('[data-language="hi"] a').click()
    page.get_by_role("button", name="Go back to the built-in Hindi text").click()
    expect(page.locator(".flash--success")).to_have_text(
        "The Hindi text of 'Verification link sent on request' is the built-in text again.")
    expect(_state(page, "hi")).to_have_text("Built-in text")
    expect(page.get_by_label("Subject")).to_have_value("$business_name का वेरिफ़िकेशन पूरा करें")
    axe.check(page)
    screenshot(page, "mail-language-hindi-restored")

    page.goto("/admin/emails/owner_notice")
    expect(page.get_by_role("navigation", name="Language you edit")).to_have_count(0)
    axe.check(page)
    widths.measure("mail-language-team")
    assert widths.too_wide == {}
    assert console.errors == [] and console.csp_violations == []
