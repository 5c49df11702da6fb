"""Issue 36's last dead ends, in Chromium at 1280 and 375 px with axe: an ops user asks an admin
to set up payments and sees when they asked; the admin finds it on their worklist and the
dashboard warns of the placeholder partner name; the nine step tiles leave a step's first field
on a phone's first screen; a merchant waiting for documents says so."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.domain.onboarding import scenarios
from tests.browser.review_steps import reviewed
from tests.browser.support import Axe, Servers, audit, log_in, screenshot
from tests.payments.support import add_merchant
from tests.support.team import make_merchant

pytestmark = pytest.mark.browser

#: An iPhone SE's first screen.
FIRST_SCREEN = {"width": 375, "height": 667}
#: The first field of a step's form a person types in (no hidden input, no button).
FIRST_FIELD = ("form.step-form :is(input:not([type=hidden]), select, textarea) >> "
               "visible=true")
STEPS = ("business", "owners", "bank", "signatory", "products")


def test_ops_ask_an_admin_who_sets_payments_up(page: Page, servers: Servers, auth, app,
                                              axe: Axe) -> None:
    merchant_id = add_merchant(app, "APPROVED", name="Chai Point")
    admin = auth.create("admin")
    log_in(page, auth.create("ops"), app=app)
    page.goto(f"/merchants/{merchant_id}/payments/credentials")
    audit(page, axe)
    screenshot(page, "credentials-ops-before-asking")
    page.get_by_role("button", name="Ask an admin to set up payments").click()
    expect(page.locator(".setup-asked")).to_contain_text("— an admin will set it up")
    expect(page.get_by_role("button", name="Ask an admin to set up payments")).to_have_count(0)
    audit(page, axe)
    screenshot(page, "credentials-ops-after-asking")

    page.context.clear_cookies()
    log_in(page, admin, app=app)
    page.goto("/worklist")
    item = page.locator("[data-reason=payments_setup]")
    expect(item).to_contain_text("ops@example.com asked on")
    audit(page, axe)
    screenshot(page, "worklist-admin-payments-to-set-up")
    item.get_by_role("link", name="Set up payments").click()
    page.get_by_role("button", name="Save credentials").click()
    expect(page.locator(".current-credentials")).to_be_visible()
    page.goto("/admin/")
    expect(page.locator(".partner-unnamed")).to_contain_text("Branding page")
    audit(page, axe)
    screenshot(page, "dashboard-partner-warning")


def test_a_steps_first_field_is_on_a_phones_first_screen(page: Page, servers: Servers, auth,
                                                        app, axe: Axe) -> None:
    merchant_id = make_merchant(app, "Shree Venkateshwara Handloom & Textile Exports")
    log_in(page, auth.create("ops"), app=app)
    page.set_viewport_size(FIRST_SCREEN)
    for key in STEPS:
        page.goto(f"/merchants/{merchant_id}/steps/{key}")
        box = page.locator(FIRST_FIELD).first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= FIRST_SCREEN["height"], (key, box)
        assert page.evaluate("document.documentElement.scrollWidth") <= FIRST_SCREEN["width"]
    tiles = page.locator(".stepper__step")
    expect(tiles).to_have_count(9)
    expect(page.locator(".stepper__step[aria-current=step]")).to_contain_text("Products")
    page.goto(f"/merchants/{merchant_id}/steps/business")
    audit(page, axe)
    screenshot(page, "wizard-business-step")


def test_a_merchant_waiting_for_documents_reads_so(page: Page, servers: Servers, auth, app,
                                                  axe: Axe) -> None:
    make_merchant(app, "Papers Ltd", checklist={"documents": "PENDING"},
                  documents_outstanding=["LLP_AGREEMENT"])
    log_in(page, auth.create("ops"), app=app)
    page.goto("/merchants")
    expect(page.locator("table.merchants .status").first).to_have_text("Waiting for documents")
    audit(page, axe)
    screenshot(page, "merchants-waiting-for-documents")


def test_a_rejected_merchant_offers_the_rejection_email(page: Page, servers: Servers, auth, app,
                                                       axe: Axe) -> None:
    log_in(page, auth.create("admin"), app=app)
    reviewed(page, servers, app, scenarios.REVIEW_REJECTED)
    expect(page.get_by_role("button", name="Email the rejection to the signatory")).to_be_visible()
    audit(page, axe)
    screenshot(page, "status-rejected-untold")
    page.get_by_role("button", name="I told them another way").click()
    expect(page.locator(".rejection-told")).to_contain_text("The merchant was told on")
    audit(page, axe)
    screenshot(page, "status-rejected-told")
