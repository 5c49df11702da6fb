"""The penny drop's outcome is on the page reached after sending the bank details, in Chromium;
a failed one leaves step 4 needing attention until the cancelled cheque is uploaded."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from portal.domain.onboarding import scenarios
from tests.browser.support import Axe, fill, log_in, screenshot, send

pytestmark = pytest.mark.browser


@pytest.fixture
def merchant_page(page: Page, sent_merchant, auth) -> str:
    """Signed in as ops with a merchant created at the sandbox; its base URL."""
    base = sent_merchant()
    log_in(page, auth.create("ops"))
    return base


def bank_state(page: Page):
    """The stepper's entry of step 4."""
    return page.locator(".stepper__step[data-step='bank']")


def test_a_failed_penny_drop_is_said_at_send_time(page: Page, merchant_page: str, axe: Axe,
                                                 tmp_path: Path) -> None:
    page.goto(f"{merchant_page}/steps/bank")
    fill(page, scenarios.PENNY_DROP_FAILS)
    send(page)
    outcome = page.locator(".flash").first
    expect(outcome).to_contain_text("penny drop failed")
    expect(outcome).to_contain_text("a cancelled cheque is now needed")
    expect(outcome).not_to_have_class("flash flash--success")
    expect(bank_state(page)).to_have_attribute("data-state", "needs_attention")
    expect(bank_state(page)).to_contain_text("Needs attention")
    axe.check(page)
    screenshot(page, "penny-drop-failed")

    page.goto(f"{merchant_page}/steps/documents")
    expect(bank_state(page)).to_have_attribute("data-state", "needs_attention")
    cheque = tmp_path / "cheque.pdf"
    cheque.write_bytes(scenarios.sample_pdf("cheque"))
    form = page.locator("form.upload[data-slot='CANCELLED_CHEQUE']")
    form.locator("input[type=file]").set_input_files(cheque)
    form.get_by_role("button", name="Upload and send").click()
    page.wait_for_load_state()
    expect(bank_state(page)).to_have_attribute("data-state", "sent")


def test_a_verified_penny_drop_names_the_account_holder_at_the_bank(
        page: Page, merchant_page: str) -> None:
    page.goto(f"{merchant_page}/steps/bank")
    fill(page)
    send(page)
    outcome = page.locator(".flash--success").first
    expect(outcome).to_contain_text("penny drop verified the account")
    expect(outcome).to_contain_text("The bank knows the account holder as '")
    expect(bank_state(page)).to_have_attribute("data-state", "sent")
