"""A bank change after approval, in Chromium at 1280 and 375 px with axe: ops ask for it with a
cancelled cheque on the merchant's page, a second admin approves it, it is emailed to the
gateway's support (the mail sink has it), the sandbox's support resets the record, and ops send
the bank step again with the new account; the merchant's page then lists the request as done."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from portal.core.config import Settings
from portal.domain.onboarding import scenarios
from tests.browser.payment_steps import approved_by_the_sandbox
from tests.browser.support import PHONE, Axe, Servers, log_in, screenshot
from tests.change_requests.support import NEW_BANK, REASON, SUPPORT
from tests.support.mail import body_of, mail_sink, mailing

pytestmark = pytest.mark.browser
__all__ = ["mail_sink"]


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The browser suite's settings, mailing to the loopback sink, with the support's address."""
    return mailing(settings, mail_sink).with_changes(gateway_support_email=SUPPORT)


def test_a_bank_change_is_asked_approved_emailed_reset_and_sent(
        page: Page, chromium: Browser, servers: Servers, auth, csrf_app, axe: Axe, mail_sink,
        tmp_path) -> None:
    merchant_id = approved_by_the_sandbox(csrf_app, servers, scenarios.HAPPY)
    log_in(page, auth.create("ops"))
    page.goto(f"/merchants/{merchant_id}")
    page.locator(".change-sections [data-section='bank']").get_by_role("link").click()
    page.get_by_label("New account number").fill(NEW_BANK["bankAccountNumber"])
    page.get_by_label("New IFSC").fill(NEW_BANK["bankIfscCode"])
    page.get_by_label("Why the change is needed").fill(REASON)
    page.get_by_role("button", name="Ask for approval").click()
    expect(page.locator("#proof-errors")).to_have_text(
        "Attach the proof: a cancelled cheque of the new account.")
    expect(page.get_by_label("New IFSC")).to_have_value(NEW_BANK["bankIfscCode"])  # kept
    axe.check(page)
    screenshot(page, "change-request-refused")
    cheque = tmp_path / "cheque.pdf"
    cheque.write_bytes(scenarios.sample_pdf("CANCELLED_CHEQUE"))
    page.get_by_label("Proof").set_input_files(str(cheque))
    page.get_by_role("button", name="Ask for approval").click()
    expect(page.locator("#state-heading")).to_have_text("Waiting for approval")
    expect(page.locator(".change-values")).to_contain_text("********5544")
    page.set_viewport_size(PHONE)
    axe.check(page)
    screenshot(page, "change-request-waiting")
    request_url = page.url

    second = chromium.new_context(base_url=servers.portal)
    try:
        other = second.new_page()
        log_in(other, auth.create("admin", "second-admin@example.com"), app=csrf_app)
        other.goto("/approvals/")
        card = other.locator("article.approval")
        expect(card).to_contain_text("Change of locked details")
        axe.check(other)
        card.get_by_role("button", name="Approve and carry out").click()
        expect(other.locator(".flash--success")).to_contain_text(
            "emailed to the gateway's support")
    finally:
        second.close()
    [message] = mail_sink.messages()
    assert message["To"] == SUPPORT and "998877665544" in body_of(message)

    page.goto(request_url)
    expect(page.locator("#state-heading")).to_have_text("Emailed to the gateway's support")
    axe.check(page)
    screenshot(page, "change-request-sent")
    page.get_by_role("button", name="Sandbox: reset the record").click()
    expect(page.locator("#state-heading")).to_have_text("Record reset: send the change")
    page.get_by_role("link", name="Send the step again with the change").click()
    page.locator("[name='bankAccountNumber']").fill(NEW_BANK["bankAccountNumber"])
    page.locator("[name='bankIfscCode']").fill(NEW_BANK["bankIfscCode"])
    page.locator("form.step-form").get_by_role("button", name="Save and send").click()
    page.wait_for_load_state()
    page.goto(request_url)
    expect(page.locator("#state-heading")).to_have_text("Done")
    axe.check(page)
    screenshot(page, "change-request-done")
    page.goto(f"/merchants/{merchant_id}")
    expect(page.locator(".change-history")).to_contain_text("Bank account")
    axe.check(page)
    screenshot(page, "merchant-changes-card")
