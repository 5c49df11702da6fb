"""The main pages in headless Chromium at 1280 and 375 px, saved into $PORTAL_SCREENSHOTS for
people to look at (``make screenshots``); nothing is compared. Deselected unless
PORTAL_SCREENSHOTS names a folder (tests/browser/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from portal.domain.onboarding import scenarios
from tests.browser.payment_steps import act, hold_and_pay
from tests.browser.support import (
    Servers,
    fill,
    import_ended,
    log_in,
    screenshot,
    send,
    zip_of_example_documents,
)
from tests.bulk.support import EXAMPLE
from tests.payments.support import APPROVING_CARD, add_merchant
from tests.support.chromium import click_through_verification
from tests.support.finished import finished_merchant
from tests.support.sandbox import speak
from tests.support.workers import run_worker
from tests.verification.support import merchant_link, onboard
from tests.wizard.support import FORM_STEPS

pytestmark = [pytest.mark.browser, pytest.mark.screenshots]

#: The wizard's pages of one merchant, in the stepper's order, after its base URL.
WIZARD_PAGES = ("steps/create", "steps/business", "steps/owners", "steps/bank",
                "steps/signatory", "steps/documents", "steps/products", "verification",
                "status")


def shoot(page: Page, path: str, name: str) -> None:
    """Open ``path`` and save it as ``name`` at both widths."""
    page.goto(path)
    page.wait_for_load_state()
    screenshot(page, name)


def test_the_main_pages(page: Page, servers: Servers, auth, csrf_app, tmp_path: Path) -> None:
    merchant_id = onboard(csrf_app)  # steps 1-7 sent: every page has something to show
    approved = add_merchant(csrf_app, "APPROVED")
    shoot(page, "/login", "01-sign-in")
    log_in(page, auth.create("admin"), app=csrf_app)
    shoot(page, "/admin/", "02-dashboard")
    shoot(page, "/merchants", "03-merchants")
    shoot(page, "/merchants/new", "04-new-merchant")
    for number, path in enumerate(WIZARD_PAGES, start=1):
        shoot(page, f"/merchants/{merchant_id}/{path}", f"05-wizard-{number}-{path.split('/')[-1]}")

    page.goto(f"/merchants/{approved}/payments/credentials")
    page.get_by_role("button", name="Save credentials").click()
    expect(page.locator(".current-credentials")).to_be_visible()
    shoot(page, f"/merchants/{approved}/payments/new", "06-new-hold")
    hold_and_pay(page, servers, approved, APPROVING_CARD)  # ends on the payment's page
    screenshot(page, "07-payment")
    act(page, "capture")
    act(page, "refund", "250")
    screenshot(page, "07-payment-partly-refunded")
    shoot(page, "/payments", "08-payments")
    shoot(page, "/admin/audit", "09-audit")
    bulk_results(page, csrf_app, tmp_path)
    screenshot(page, "13-bulk-results")
    shoot(page, merchant_link(csrf_app, merchant_id), "14-merchants-own-page")


def test_the_step_pages_in_their_states(page: Page, servers: Servers, auth, csrf_app) -> None:
    """A finished merchant's read-only steps (long values), an error summary, the picker."""
    finished = finished_merchant(csrf_app)
    log_in(page, auth.create("ops"))
    for number, step in enumerate(FORM_STEPS, start=1):
        shoot(page, f"/merchants/{finished}/steps/{step}", f"10-readonly-{number}-{step}")
    page.goto("/merchants/new")
    fill(page, scenarios.REVIEW_RFI)
    screenshot(page, "11-scenario-picker")
    send(page)
    page.goto(page.url.replace("/business", "/owners"))
    page.locator("[name='owners-0-pan']").fill("ABCCE1234F")
    page.locator("[name='owners-0-percentageOwnership']").fill("75")
    send(page)
    screenshot(page, "12-error-summary")


def bulk_results(page: Page, app, folder: Path) -> None:
    """Import the example's ten merchants with their ZIP of documents from the bulk page
    and run the import; ends on its results."""
    page.goto("/admin/bulk/")
    page.locator("#file").set_input_files(EXAMPLE)
    page.locator("#documents").set_input_files(zip_of_example_documents(folder))
    page.get_by_role("button", name="Check and import").click()
    page.wait_for_url("**/admin/bulk/*")
    run_worker(app)
    import_ended(page)


def test_the_pages_of_checklist_words_and_requests_for_information(
        page: Page, servers: Servers, auth, csrf_app) -> None:
    """Docs dialect: an individual whose owners are not needed (summary, step 3, status), and a
    review asking for a GST certificate with its rfiDetails (status, step 6)."""
    speak(servers.sandbox, "docs")
    individual = onboard(csrf_app, scenarios.INDIVIDUAL)
    asked = onboard(csrf_app, scenarios.REVIEW_RFI_GST)
    log_in(page, auth.create("ops"))
    shoot(page, f"/merchants/{individual}", "15-individual-summary")
    shoot(page, f"/merchants/{individual}/steps/owners", "15-individual-owners")
    shoot(page, f"/merchants/{individual}/status", "15-individual-status")
    page.goto(f"/merchants/{asked}/verification/session")
    click_through_verification(page.frame_locator("#verification-frame"))
    expect(page.locator(".verification-result")).to_have_attribute("data-state", "confirmed")
    servers.onboarding.tick()
    shoot(page, f"/merchants/{asked}/status", "16-rfi-details-status")
    shoot(page, f"/merchants/{asked}/steps/documents", "16-rfi-gst-documents")
