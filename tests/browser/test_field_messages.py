"""Every refused value is explained beside its field in words naming what is expected, in
Chromium, the same in the wizard and the bulk import: never pydantic's text or a regex."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from portal.gateway import rules
from tests.browser.support import Axe, Servers, fill, log_in, screenshot, send
from tests.bulk.support import csv_text, example_rows

pytestmark = pytest.mark.browser

#: What a library (not a person) would say.
LIBRARY_WORDS = ("Input should", "String should", "should match pattern", "Value error", "^[")
ADDRESS_FIELDS = ("streetAddress1", "streetAddress2", "zipcode", "stateCode", "city", "state")


def errors_beside(page: Page, name: str) -> list[str]:
    """The error messages shown in the field box of the input named ``name``."""
    return page.locator(f".field:has([name='{name}']) .field__errors li").all_inner_texts()


def assert_no_library_words(page: Page) -> None:
    """No library message anywhere on the page."""
    text = page.locator("main").inner_text()
    assert not [w for w in LIBRARY_WORDS if w in text], text


@pytest.fixture
def business_page(page: Page, sent_merchant, auth) -> str:
    """Signed in as ops, on step 2 of a created merchant filled with test data."""
    base = sent_merchant()
    log_in(page, auth.create("ops"))
    page.goto(f"{base}/steps/business")
    fill(page)
    return page.url


def test_bad_business_values_are_explained_in_words(page: Page, business_page: str,
                                                    axe: Axe) -> None:
    page.locator("[name='websiteUrl']").fill("merchant")
    page.locator("[name='expectedMonthlyVolume-amount']").fill("50,000.50")
    page.locator("[name='address-businessRegisteredAddress-zipcode']").fill("012345")
    send(page)
    assert errors_beside(page, "websiteUrl") == [rules.URL_MESSAGE]
    assert errors_beside(page, "expectedMonthlyVolume-amount") == [
        rules.PATTERN_MESSAGES[rules.WHOLE_AMOUNT_PATTERN]]
    assert errors_beside(page, "address-businessRegisteredAddress-zipcode") == [
        rules.PIN_CODE_MESSAGE]
    assert_no_library_words(page)
    axe.check(page)
    screenshot(page, "business-errors")


def test_an_empty_address_flags_each_field(page: Page, business_page: str) -> None:
    for name in ADDRESS_FIELDS:
        page.locator(f"[name='address-businessRegisteredAddress-{name}']").fill("")
    send(page)
    for name in ADDRESS_FIELDS:
        assert errors_beside(page, f"address-businessRegisteredAddress-{name}") == [
            "This field is required"], name
    expect(page.locator("#address-businessRegisteredAddress > .group__error")).to_have_count(0)


def test_an_empty_create_flags_every_field(page: Page, servers: Servers, auth,
                                          axe: Axe) -> None:
    log_in(page, auth.create("ops"))
    page.goto("/merchants/new")
    page.locator("[name='externalOnboardingId']").fill("")
    send(page)
    assert errors_beside(page, "externalOnboardingId") == [rules.EXTERNAL_ID_MESSAGE]
    assert errors_beside(page, "panNumber") == ["This field is required"]
    axe.check(page)


def test_the_bulk_import_table_uses_the_same_words(page: Page, servers: Servers, auth, app,
                                                   tmp_path: Path, axe: Axe) -> None:
    rows = example_rows()
    rows[0]["websiteUrl"] = "merchant"
    rows[0]["volume_amount"] = "50,000.50"
    rows[0]["registered_zipcode"] = "012345"
    file = tmp_path / "merchants.csv"
    file.write_text(csv_text(rows), encoding="utf-8")
    log_in(page, auth.create("admin"), app=app)
    page.goto("/admin/bulk/")
    page.locator("#file").set_input_files(file)
    page.locator("form").filter(has=page.locator("input[type=file]")).locator(
        "button[type=submit]").click()
    page.wait_for_load_state()
    table = page.locator(".bulk-errors__table")
    rows_shown = {cells[1]: cells[2] for cells in (
        row.locator("td").all_inner_texts() for row in table.locator("tbody tr").all())}
    assert rows_shown["websiteUrl"] == rules.URL_MESSAGE
    assert rows_shown["volume_amount"] == rules.PATTERN_MESSAGES[rules.WHOLE_AMOUNT_PATTERN]
    assert rows_shown["registered_zipcode"] == rules.PIN_CODE_MESSAGE
    assert_no_library_words(page)
    axe.check(page)
