"""The pages this round of integrity fixes changed, in Chromium with axe-core: a value holding a
control character refused beside its field (sign-in, merchants search), the refund form saying
what is left to refund without a second admin and asking why once it is used up, a bulk
import's row whose create's outcome is unknown, and a refused merchant link. Each state is
saved at 1280 and 375 px when $PORTAL_SCREENSHOTS names a folder."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.typed_text import CONTROL_CHARACTER
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.browser.payment_steps import act, hold_and_pay
from tests.browser.support import Axe, Servers, import_ended, log_in, screenshot
from tests.bulk.support import EXAMPLE
from tests.payments.support import APPROVING_CARD, add_merchant
from tests.support.workers import run_worker
from tests.verification.support import onboard

pytestmark = pytest.mark.browser


@pytest.fixture
def settings(settings, sandbox):
    """Refunds of one payment without a second admin: 1000 in all."""
    return settings.with_changes(four_eyes_refund_above=Decimal(1000))


def type_control_character(page: Page, label: str, text: str) -> None:
    """Put ``text`` with an escape character in it into the field (a paste from a terminal)."""
    page.get_by_label(label).evaluate("(field, text) => { field.value = text; }",
                                      text.replace("|", "\x1b"))


def test_sign_in_and_search_refuse_a_control_character_beside_the_field(
        page: Page, servers: Servers, auth, app, axe: Axe) -> None:
    email = auth.create("ops")
    page.goto("/login")
    type_control_character(page, "Email", "ops|@example.com")
    page.get_by_label("Password").fill("anything")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#email-errors")).to_have_text(CONTROL_CHARACTER)
    screenshot(page, "integrity-sign-in-control-character")
    axe.check(page)

    log_in(page, email)
    page.goto("/merchants")
    type_control_character(page, "Search", "Chai|Point " + "very long name " * 8)
    page.get_by_role("button", name=re.compile("Search|Filter")).click()
    expect(page.locator("#q-errors")).to_have_text(CONTROL_CHARACTER)
    screenshot(page, "integrity-search-control-character")
    axe.check(page)


def test_the_refund_form_says_what_is_left_without_a_second_admin(
        page: Page, servers: Servers, auth, app, axe: Axe) -> None:
    merchant_id = add_merchant(app, "APPROVED")
    log_in(page, auth.create("admin"), app=app)
    page.goto(f"/merchants/{merchant_id}/payments/credentials")
    page.get_by_role("button", name="Save credentials").click()
    hold_and_pay(page, servers, merchant_id, APPROVING_CARD)
    act(page, "capture")
    left = page.locator("[data-field=left-without-approval]")
    expect(left).to_have_text("1,000 INR")
    screenshot(page, "integrity-refund-budget")
    act(page, "refund", "600.00")
    expect(left).to_have_text("400 INR")
    act(page, "refund", "600.00", again=True)
    expect(page.locator("#refund-reason-errors")).to_contain_text("another admin reads it")
    screenshot(page, "integrity-refund-needs-a-second-admin")
    axe.check(page)


def test_a_bulk_row_of_unknown_outcome_links_to_the_wizard(
        page: Page, servers: Servers, auth, app, axe: Axe) -> None:
    log_in(page, auth.create("admin"), app=app)
    servers.sandbox.state.faults.set(
        Fault(FaultKind.LOST, operation="create_onboarding", times=1))
    page.goto("/admin/bulk/")
    page.get_by_label(re.compile("CSV file")).set_input_files(str(EXAMPLE))
    page.get_by_role("button", name=re.compile("Check and import|Import")).click()
    page.wait_for_url(re.compile(r"/admin/bulk/\d+$"))
    run_worker(app)
    import_ended(page)
    row = page.locator("tr[data-state=outcome_unknown]")
    expect(row).to_contain_text("may or may not have been created")
    expect(row.locator("a.bulk-reconcile")).to_have_text("Retry or link it in the wizard")
    screenshot(page, "integrity-bulk-outcome-unknown")
    axe.check(page)


def test_no_link_for_a_merchant_that_finished_verification(
        page: Page, servers: Servers, auth, app, axe: Axe) -> None:
    merchant_id = onboard(app)
    with app.app_context():
        db.session.get(Merchant, merchant_id).status = "APPROVED"
        db.session.commit()
    log_in(page, auth.create("ops"))
    page.goto(f"/merchants/{merchant_id}/verification")
    token = page.locator("input[name=csrf_token]").first.get_attribute("value")
    page.request.post(f"/merchants/{merchant_id}/verification/links",
                      form={"csrf_token": token}, max_redirects=0)
    page.goto(f"/merchants/{merchant_id}/verification")
    expect(page.locator(".flash--error")).to_contain_text("no link was created")
    screenshot(page, "integrity-no-link-after-verification")
    axe.check(page)
