"""Nothing typed on a step is lost by leaving it (``static/js/keep-typing.js``), and the
sandbox's "Fill every step" asks before replacing what was typed or saved."""

from __future__ import annotations

import pytest
from playwright.sync_api import Dialog, Page, expect

from tests.browser.support import Axe, Console, log_in, screenshot

pytestmark = pytest.mark.browser

ACCOUNT = "[name=bankAccountNumber]"


def _tile(page: Page, step: str):
    return page.locator(f".stepper__step[data-step='{step}'] a")


def test_a_step_tile_clicked_with_unsaved_typing_saves_it_as_a_draft_first(
        page: Page, sent_merchant, auth, console: Console) -> None:
    base = sent_merchant()
    log_in(page, auth.create("ops"))
    page.goto(f"{base}/steps/bank")
    page.locator(ACCOUNT).fill("5556667778")
    _tile(page, "owners").click()
    page.wait_for_url(f"**{base}/steps/owners")
    expect(page.locator(".flashes")).to_contain_text("Draft saved; nothing was sent")
    _tile(page, "bank").click()  # nothing typed here: it just goes
    page.wait_for_url(f"**{base}/steps/bank")
    expect(page.locator(ACCOUNT)).to_have_value("5556667778")
    expect(page.locator(".flashes")).to_have_count(0)
    assert console.errors == [] and console.csp_violations == []


def test_back_with_unsaved_typing_asks_and_staying_keeps_it(page: Page, sent_merchant,
                                                            auth) -> None:
    base = sent_merchant()
    log_in(page, auth.create("ops"))
    page.goto(f"{base}/steps/business")
    page.goto(f"{base}/steps/bank")
    page.locator(ACCOUNT).click()
    page.keyboard.type("5556667778")
    with page.expect_event("dialog") as asked:
        page.evaluate("history.back()")
    dialog: Dialog = asked.value
    assert dialog.type == "beforeunload"
    dialog.dismiss()
    expect(page.locator(ACCOUNT)).to_have_value("5556667778")
    assert page.url.endswith(f"{base}/steps/bank")


def test_fill_every_step_asks_before_replacing_typing_then_what_is_saved(
        page: Page, sent_merchant, auth, axe: Axe) -> None:
    base = sent_merchant()
    log_in(page, auth.create("ops"))
    page.goto(f"{base}/steps/bank")
    page.locator(ACCOUNT).fill("5556667778")
    page.get_by_role("button", name="Save draft").click()
    page.wait_for_load_state()
    page.locator("[name=bankIfscCode]").fill("SBIN0001234")  # typed, not saved
    messages: list[str] = []

    def refuse(dialog: Dialog) -> None:
        messages.append(dialog.message)
        dialog.dismiss()
    page.once("dialog", refuse)
    page.get_by_role("button", name="Fill every step").click()
    assert "replaces what you typed here with the test data" in messages[0]
    assert page.url.endswith(f"{base}/steps/bank")  # nothing happened

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Fill every step").click()
    page.wait_for_url(f"**{base}/fill")
    expect(page.locator(".fill-confirm__replaced li")).to_have_text(
        ["Step 4, bank details: the saved draft"])
    axe.check(page)
    screenshot(page, "fill-every-step-confirm")
    page.get_by_role("link", name="Keep them").click()
    page.wait_for_url(f"**{base}/steps/bank")
    expect(page.locator(ACCOUNT)).to_have_value("5556667778")

    page.get_by_role("button", name="Fill every step").click()
    page.get_by_role("button", name="Replace them").click()
    page.wait_for_url(f"**{base}/steps/bank")
    expect(page.locator(".flashes")).to_contain_text("Filled steps")
    expect(page.locator(ACCOUNT)).not_to_have_value("5556667778")
