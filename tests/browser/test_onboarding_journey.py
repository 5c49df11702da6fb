"""An ops user onboards a merchant in Chromium: steps 1-7, documents, the framed gateway page,
the sandbox's review, APPROVED on the status page with the MID its webhook named, in each answer
dialect of the sandbox; axe-core audits every page on the way."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from portal.core.labels import Kind, label
from portal.domain.onboarding import scenarios
from tests.browser.payment_steps import merchant_id_of
from tests.browser.support import Axe, Console, Servers, log_in
from tests.support.chromium import click_through_verification

pytestmark = pytest.mark.browser

FORM_STEPS = ("business", "owners", "bank", "signatory")


def fill_and_send(page: Page, scenario: str = scenarios.HAPPY) -> None:
    """Fill the step's form with a sandbox scenario, then press "Save and send"."""
    page.get_by_label("Scenario", exact=True).select_option(scenario)
    page.get_by_role("button", name="Fill every step").click()
    page.wait_for_load_state()
    page.locator("form.step-form").get_by_role("button", name="Save and send").click()
    page.wait_for_load_state()


def test_ops_onboards_a_merchant_to_approved(page: Page, servers: Servers, axe: Axe, auth,
                                            console: Console, tmp_path, answer_dialect) -> None:
    email = auth.create("ops")
    page.goto("/login")
    axe.check(page)
    log_in(page, email)

    page.goto("/merchants")
    axe.check(page)
    page.get_by_role("link", name="New merchant").click()
    axe.check(page)
    fill_and_send(page)
    merchant_id = merchant_id_of(page)
    base = f"/merchants/{merchant_id}"

    for step in FORM_STEPS:
        page.goto(f"{base}/steps/{step}")
        axe.check(page)
        fill_and_send(page)
        expect(page.locator(f".stepper__step[data-step='{step}']")).to_have_attribute(
            "data-state", "sent")

    page.goto(f"{base}/steps/documents")
    axe.check(page)
    slots = page.locator("form.upload").evaluate_all("(forms) => forms.map(f => f.dataset.slot)")
    assert slots
    for slot in slots:
        document = tmp_path / f"{slot.lower()}.pdf"
        document.write_bytes(scenarios.sample_pdf(slot))
        form = page.locator(f"form.upload[data-slot='{slot}']")
        form.locator("input[type=file]").set_input_files(document)
        form.get_by_role("button", name="Upload and send").click()
        page.wait_for_load_state()
        sent = f"{label(slot, Kind.DOCUMENT)} sent to the gateway."
        expect(page.get_by_text(sent)).to_be_visible()

    page.goto(f"{base}/steps/products")
    axe.check(page)
    fill_and_send(page)
    expect(page.locator(".stepper__step[data-step='products']")).to_have_attribute(
        "data-state", "sent")

    page.goto(f"{base}/verification")
    axe.check(page)
    page.get_by_role("button", name="Create a link to copy").click()
    merchant_link = re.search(r"http://\S+/verify/\S+",
                              page.locator("#merchant-link-url").input_value())
    assert merchant_link is not None
    axe.check(page, merchant_link.group().rstrip("."))
    axe.check(page, f"{base}/verification/session")
    page.get_by_role("button", name="Get verification link").click()
    click_through_verification(page.frame_locator("#verification-frame"))
    expect(page.locator(".verification-result")).to_have_attribute("data-state", "confirmed")
    expect(page.locator(".verification-result")).to_contain_text("Pending review")

    servers.onboarding.tick()  # the review decides; its webhook reaches the portal
    page.goto(f"{base}/status")
    expect(page.locator(".onboarding-status")).to_have_attribute("data-status", "APPROVED")
    expect(page.locator(".gateway-mid")).to_contain_text("MID UCIC")  # its webhook's, read
    axe.check(page)
    assert console.csp_violations == []
    assert console.errors == []
