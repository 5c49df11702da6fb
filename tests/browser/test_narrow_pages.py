"""Every main page fits a 375 px phone, and a 1280 px screen: loaded in Chromium with realistic
long values (long names and emails, ids, a refunds table, merchant links, bulk problems), none is
wider than the viewport and no element is laid out past its edge, so nothing sits off-screen
behind a sideways scroll."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from portal.core.db import db
from portal.core.models.merchant import Merchant
from tests.browser.payment_steps import act, hold_and_pay
from tests.browser.support import PHONE, Servers, Widths, log_in
from tests.bulk.support import csv_text, example_rows
from tests.payments.support import APPROVING_CARD, add_merchant
from tests.support.workers import run_worker
from tests.verification.support import onboard

pytestmark = pytest.mark.browser

ADMIN = "operations.manager.north.india@payments.partner-company.example.co.in"
NEWCOMER = "relationship.manager.karnataka.region@onboarding.partner-company.example.co.in"
DISPLAY_NAME = "Shree Venkateshwara Handloom & Textile Exports (Kanchipuram flagship store)"
LEGAL_NAME = "Shree Venkateshwara Handloom and Textile Exports Private Limited"
#: The audit page's recorded details wider than their box (they wrap instead).
CLIPPED_DETAILS = """() => Array.from(document.querySelectorAll(".audit-json"))
    .filter(box => box.scrollWidth > box.clientWidth + 1).map(box => box.innerText.slice(0, 40))"""
WIZARD_PAGES = ("steps/create", "steps/business", "steps/owners", "steps/bank",
                "steps/signatory", "steps/documents", "steps/products", "verification",
                "status")


def long_names(app, merchant_id: int) -> None:
    """Give a merchant the long names real ones have."""
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        merchant.display_name, merchant.legal_name = DISPLAY_NAME, LEGAL_NAME
        db.session.commit()


def test_every_main_page_fits_a_phone_and_a_desktop(page: Page, servers: Servers, auth, csrf_app,
                                      tmp_path: Path) -> None:
    onboarded = onboard(csrf_app)
    long_names(csrf_app, onboarded)
    approved = add_merchant(csrf_app, "APPROVED", name="Chai Point")
    long_names(csrf_app, approved)
    auth.create("admin", ADMIN)
    page.set_viewport_size(PHONE)
    widths = Widths(page)
    widths.measure("sign-in", "/login")
    log_in(page, ADMIN, app=csrf_app)

    widths.measure("dashboard", "/admin/")
    widths.measure("merchants", "/merchants")
    widths.measure("new-merchant", "/merchants/new")
    widths.measure("merchant-summary", f"/merchants/{onboarded}")
    for path in WIZARD_PAGES:
        widths.measure(f"wizard-{path.split('/')[-1]}", f"/merchants/{onboarded}/{path}")
    page.goto(f"/merchants/{onboarded}/verification")
    for _ in range(2):
        page.get_by_role("button", name="Create a link to copy").click()
    expect(page.locator(".merchant-links table tbody tr")).to_have_count(2)
    widths.measure("merchant-links")

    page.goto(f"/merchants/{approved}/payments/credentials")
    page.get_by_role("button", name="Save credentials").click()
    expect(page.locator(".current-credentials")).to_be_visible()
    widths.measure("credentials")
    widths.measure("new-hold", f"/merchants/{approved}/payments/new")
    hold_and_pay(page, servers, approved, APPROVING_CARD)
    act(page, "capture")
    act(page, "refund", "100.00")
    act(page, "refund", "100.00", again=True)
    expect(page.locator("table.refunds tbody tr")).to_have_count(2)
    widths.measure("payment-refunds")
    widths.measure("payments", "/payments")
    widths.measure("portfolio-key", "/payments/portfolio-key")
    widths.measure("approvals", "/approvals")

    page.goto("/admin/team")
    page.get_by_label("Email", exact=True).fill(NEWCOMER)
    page.get_by_label("Email them a link to choose their own password (valid 3 days)").uncheck()
    page.get_by_role("button", name="Add to the team").click()
    expect(page.locator("h1")).to_contain_text("Added")
    widths.measure("team-added")
    widths.measure("team", "/admin/team")
    page.get_by_role("link", name=f"Deactivate {NEWCOMER}").click()
    widths.measure("team-confirm")
    widths.measure("emails", "/admin/emails")
    widths.measure("mailbox", "/admin/mailbox")
    widths.measure("account", "/account/authenticator")

    rows = example_rows()[:3]
    rows[0]["websiteUrl"] = "merchant"
    rows[1]["owner2_pan"] = "AAACB1234C"
    bad = tmp_path / "merchants-with-problems.csv"
    bad.write_text(csv_text(rows), encoding="utf-8")
    page.goto("/admin/bulk/")
    page.locator("#file").set_input_files(bad)
    page.get_by_role("button", name="Check and import").click()
    expect(page.locator(".bulk-errors__table")).to_be_visible()
    widths.measure("bulk-problems")
    good = tmp_path / "merchants.csv"
    good.write_text(csv_text(example_rows()[:3]), encoding="utf-8")
    page.goto("/admin/bulk/")
    page.locator("#file").set_input_files(good)
    page.get_by_role("button", name="Check and import").click()
    page.wait_for_url("**/admin/bulk/*")
    run_worker(csrf_app)
    widths.measure("bulk-results", page.url)
    widths.measure("bulk", "/admin/bulk/")
    widths.measure("audit", "/admin/audit")
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    widths.measure("audit-details")
    assert page.evaluate(CLIPPED_DETAILS) == [], "the recorded details scroll sideways"

    assert widths.too_wide == {}, "wider than the screen:\n" + "\n".join(
        f"  {name}: {width}" for name, width in widths.too_wide.items())
