"""The pages issue 23 changed for bulk imports, the team, the audit filters, the mailbox and the
checkout's test cards, in Chromium: each state (empty, with problems, finished, asking first)
passes axe-core and is saved at 1280 and 375 px for people to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from portal.sandbox.payments.checkout import TEST_CARDS
from tests.browser.payment_steps import fill_hold_form
from tests.browser.support import (
    Axe,
    Console,
    Servers,
    import_ended,
    log_in,
    screenshot,
    zip_of_example_documents,
)
from tests.bulk.support import EXAMPLE, csv_text, example_rows
from tests.payments.support import add_merchant
from tests.support.workers import run_worker

pytestmark = pytest.mark.browser


def upload(page: Page, csv_file: Path, documents: Path | None = None) -> None:
    """Fill and send the bulk form."""
    page.goto("/admin/bulk/")
    page.locator("#file").set_input_files(csv_file)
    if documents is not None:
        page.locator("#documents").set_input_files(documents)
    page.get_by_role("button", name="Check and import").click()
    page.wait_for_load_state()


def test_bulk_import_with_documents_in_every_state(page: Page, servers: Servers, auth, app,
                                                   axe: Axe, console: Console,
                                                   tmp_path: Path) -> None:
    log_in(page, auth.create("admin"), app=app)
    page.goto("/admin/bulk/")
    axe.check(page)
    screenshot(page, "bulk-empty")

    not_a_zip = tmp_path / "documents.zip"
    not_a_zip.write_bytes(b"PK\x03\x04 but nothing more")
    upload(page, EXAMPLE, not_a_zip)
    expect(page.locator("#documents-errors")).to_contain_text("not a ZIP archive")
    axe.check(page)
    screenshot(page, "bulk-zip-refused")

    rows = example_rows()[:2]
    rows[0]["owner1_aadhar"] = "docs/missing.pdf"
    bad = tmp_path / "merchants-with-problems.csv"
    bad.write_text(csv_text(rows), encoding="utf-8")
    upload(page, bad, zip_of_example_documents(tmp_path))
    expect(page.locator(".bulk-errors__table")).to_contain_text(
        "No file docs/missing.pdf in the ZIP of documents")
    axe.check(page)
    screenshot(page, "bulk-problems")

    good = tmp_path / "merchants.csv"
    good.write_text(csv_text(example_rows()[:2]), encoding="utf-8")
    upload(page, good, zip_of_example_documents(tmp_path))
    page.wait_for_url("**/admin/bulk/*")
    run_worker(app)
    import_ended(page)
    expect(page.locator("[data-count='completed']")).to_have_text("2")
    axe.check(page)
    screenshot(page, "bulk-results")
    assert console.csp_violations == [] and console.errors == []


def test_team_audit_and_mailbox_pages(page: Page, servers: Servers, auth, app, axe: Axe) -> None:
    log_in(page, auth.create("admin"), app=app)
    auth.create("ops", "asha.rao@example.com")
    page.goto("/admin/team")
    axe.check(page)
    screenshot(page, "team")
    page.get_by_role("link", name="Deactivate asha.rao@example.com").click()
    axe.check(page)
    screenshot(page, "team-confirm")
    page.get_by_role("button", name="Deactivate").click()
    expect(page.locator(".flash--success")).to_contain_text("was deactivated")

    page.goto("/admin/audit")
    page.get_by_label("What happened").select_option(label="Deactivated a user")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("td.sentence")).to_have_text(
        [f"{auth.create('admin')} (admin) deactivated asha.rao@example.com."])
    axe.check(page)
    screenshot(page, "audit-filtered")

    page.goto("/admin/mailbox")
    expect(page.locator(".site-nav a[aria-current='page']")).to_have_text("Mailbox")
    axe.check(page)
    screenshot(page, "mailbox")


def test_the_checkout_page_with_its_test_cards(page: Page, servers: Servers, auth, app,
                                               axe: Axe) -> None:
    merchant_id = add_merchant(app, "APPROVED")
    log_in(page, auth.create("admin"), app=app)
    page.goto(f"/merchants/{merchant_id}/payments/credentials")
    page.get_by_role("button", name="Save credentials").click()
    page.goto(f"/merchants/{merchant_id}/payments/new")
    fill_hold_form(page)
    page.get_by_role("button", name="Create hold and go to the checkout page").click()
    page.wait_for_url(f"{servers.sandbox.url}/**")
    # every test card, scenario cards included, and the row for an expiry gone by
    expect(page.locator("section.test-cards tbody tr")).to_have_count(len(TEST_CARDS) + 1)
    axe.check(page)
    screenshot(page, "checkout-test-cards")
