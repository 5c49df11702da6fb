"""A failed Save and send, corrected and sent again in Chromium, is never taken for someone
else's save: the re-shown form carries the version the user's own save stored."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import (
    CONFLICT,
    Axe,
    Servers,
    expect_sent,
    fill,
    log_in,
    screenshot,
    send,
)

pytestmark = pytest.mark.browser


@pytest.fixture
def merchant_page(page: Page, sent_merchant, auth) -> str:
    """Signed in as ops with a merchant created at the sandbox; its base URL."""
    base = sent_merchant()
    log_in(page, auth.create("ops"))
    return base


def test_an_owner_pan_corrected_after_an_error_is_sent(page: Page, merchant_page: str,
                                                      axe: Axe) -> None:
    page.goto(f"{merchant_page}/steps/owners")
    fill(page)
    pan = page.locator("[name='owners-0-pan']")
    good = pan.input_value()
    pan.fill(good[:3] + "C" + good[4:])  # a company's PAN where a person's is needed
    send(page)
    expect(page.locator(".field--invalid [name='owners-0-pan']")).to_be_visible()
    axe.check(page)
    screenshot(page, "owners-error")
    pan.fill(good)
    send(page)
    expect_sent(page, "owners")


def test_a_bad_gstin_corrected_is_sent(page: Page, merchant_page: str) -> None:
    page.goto(f"{merchant_page}/steps/business")
    fill(page)
    gstin = page.locator("[name='gstNumber']")
    good = gstin.input_value()
    gstin.fill(good[:-1] + ("A" if good[-1] != "A" else "B"))  # a wrong check digit
    send(page)
    expect(page.locator(".field--invalid [name='gstNumber']")).to_be_visible()
    gstin.fill(good)
    send(page)
    expect_sent(page, "business")


def test_a_pan_the_gateway_refused_corrected_is_sent(page: Page, servers: Servers,
                                                    auth) -> None:
    log_in(page, auth.create("ops"))
    page.goto("/merchants/new")
    fill(page)
    url = page.url  # the new record's step 1, as a draft
    pan = page.locator("[name='panNumber']")
    good = pan.input_value()
    pan.fill(good[:5] + "9999" + good[9:])  # the registry does not know it
    send(page)
    assert page.url == url
    expect(page.locator(".form-errors")).to_contain_text("The gateway refused the request.")
    pan.fill(good)
    send(page)
    expect(page.get_by_text(CONFLICT)).to_have_count(0)
    expect(page.locator(".stepper__step[data-step='create']")).to_have_attribute(
        "data-state", "sent")


def test_a_real_conflict_on_a_pan_never_shows_two_identical_values(
        page: Page, context, merchant_page: str, axe: Axe) -> None:
    page.goto(f"{merchant_page}/steps/owners")
    fill(page)
    page.reload()
    other = context.new_page()  # another tab of the same person: its save counts as another's
    other.goto(f"{merchant_page}/steps/owners")
    pan = other.locator("[name='owners-0-pan']")
    good = pan.input_value()
    pan.fill(good[:3] + "C" + good[4:])
    other.locator("form.step-form").get_by_role("button", name="Save draft").click()
    other.wait_for_load_state()
    page.locator("[name='owners-0-name']").fill("Asha R. Rao")
    page.locator("form.step-form").get_by_role("button", name="Save draft").click()
    page.wait_for_load_state()
    expect(page.locator(".form-errors")).to_contain_text(CONFLICT)
    changes = page.locator(".draft-conflict li").all_inner_texts()
    pan_change = next(c for c in changes if c.startswith("Beneficial owners 1 > PAN"))
    theirs, yours = pan_change.split("theirs ")[1].split(" / yours ")
    assert theirs != yours, pan_change
    assert good[3] in yours and "C" in theirs
    axe.check(page)
    screenshot(page, "owners-conflict")


def test_saving_what_is_already_stored_is_no_conflict(page: Page, context,
                                                      merchant_page: str) -> None:
    page.goto(f"{merchant_page}/steps/owners")
    fill(page)
    other = context.new_page()
    other.goto(f"{merchant_page}/steps/owners")
    other.locator("form.step-form").get_by_role("button", name="Save draft").click()
    other.wait_for_load_state()  # the same values saved again from another tab
    send(page)
    expect_sent(page, "owners")
