"""Revision 3's onboarding facts on the pages, in Chromium: the pendencies and the MID on the
status page, the MID offered on the payment credentials (and its error beside the field), a
step the gateway answered 429 (queued, "busy"), a document whose answer named its status. axe
finds nothing serious on any of them; ``PORTAL_SCREENSHOTS`` saves each at 1280 and 375 px."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from portal.core.clients import CLIENT_EXTENSION
from portal.core.config import SETTINGS_EXTENSION
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.onboarding import scenarios
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.onboarding.hmac import hmac_digest
from portal.gateway.retry import NO_RETRY
from tests.browser.support import Axe, Servers, fill, log_in, screenshot, send
from tests.support.gateway_front import GatewayFront, gateway_front
from tests.support.rows import stored
from tests.support.settings import API_KEY, API_SECRET
from tests.verification.support import onboard

pytestmark = pytest.mark.browser

LONG_REASON = ("The bank statement uploaded covers January to March only; the compliance team "
               "needs the last six months, stamped by the branch, with the account holder's "
               "name matching the registered name exactly, including any suffix such as "
               "Private Limited or LLP, before the cards approval can go ahead.")


def deliver(app, body: dict[str, str]) -> None:
    """A webhook as the sandbox delivers it (its digest added), to the portal's receiver."""
    raw = json.dumps(body).encode()
    answer = app.test_client().post("/webhooks/onboarding", data=raw, headers={
        "Content-Type": "application/json", "x-gl-digest": hmac_digest(API_SECRET, raw)})
    assert answer.status_code == 200


def pendency(onboarding_id: str, event_id: str, sub: str, status: str, reason: str,
             at: str) -> dict[str, str]:
    return {"event_id": event_id, "onboarding_id": onboarding_id, "onboarding_status": "RFI",
            "event_timestamp": at, "status": "MERCHANT_PENDENCY_STATUS_UPDATED",
            "pendency_info_category": "DOCUMENT", "pendency_info_sub_category": sub,
            "pendency_info_reason": reason, "pendency_info_status": status,
            "pendency_info_creation_time": str(int(at) - 3_600_000),
            "pendency_info_cards_approval_blocking": "true",
            "pendency_info_mca_approval_blocking": "true"}


def test_the_status_page_shows_pendencies_and_the_mid(page: Page, servers: Servers, auth,
                                                      csrf_app, axe: Axe) -> None:
    merchant_id = onboard(csrf_app)
    onboarding_id = stored(csrf_app, merchant_id).onboarding_id
    log_in(page, auth.create("ops"))
    page.goto(f"/merchants/{merchant_id}/status")
    expect(page.locator("table.pendencies")).to_have_count(0)  # none reported: no section
    screenshot(page, "facts-status-no-pendencies")

    servers.onboarding.complete_verification(onboarding_id)
    deliver(csrf_app, pendency(onboarding_id, "e1", "BANK_STATEMENT,CANCELLED_CHEQUE", "OPEN",
                               LONG_REASON, "1767600000000"))
    deliver(csrf_app, pendency(onboarding_id, "e2", "ABCPR1234K_ASHA_RAO_AADHAR", "RESOLVED",
                               "", "1767700000000"))
    page.goto(f"/merchants/{merchant_id}/status")
    rows = page.locator("tr.pendency")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("Document: Bank statement, Cancelled cheque")
    expect(rows.first).to_contain_text("It holds up the cards approval and the MCA approval.")
    expect(rows.nth(1)).to_contain_text("Aadhaar of Asha Rao")
    axe.check(page)
    screenshot(page, "facts-status-pendencies")

    servers.onboarding.finish_review(onboarding_id)
    deliver(csrf_app, {"event_id": "e3", "onboarding_id": onboarding_id,
                       "onboarding_status": "ACCEPTED", "event_timestamp": "1767800000000",
                       "status": "MERCHANT_STATUS_ACCEPTED", "merchant_id": "UCIC0000004217"})
    page.goto(f"/merchants/{merchant_id}/status")
    expect(page.locator(".gateway-mid")).to_contain_text("MID UCIC0000004217")
    axe.check(page)
    screenshot(page, "facts-status-approved-mid")


def test_the_credentials_offer_the_gateways_mid(page: Page, servers: Servers, auth, csrf_app,
                                                axe: Axe) -> None:
    merchant_id = onboard(csrf_app)
    with csrf_app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        merchant.status, merchant.gateway_mid = "APPROVED", "merchant_xyz789"
        db.session.commit()
    log_in(page, auth.create("admin"), app=csrf_app)
    page.goto(f"/merchants/{merchant_id}/payments/credentials")
    mid = page.get_by_label("Merchant id (MID)")
    expect(mid).to_have_value("merchant_xyz789")
    expect(page.locator("form.credentials-form")).to_contain_text(
        "The gateway approved this merchant as MID merchant_xyz789")
    axe.check(page)
    screenshot(page, "facts-credentials-offered-mid")
    mid.fill("")
    page.get_by_role("button", name="Save credentials").click()
    expect(page.locator(".field--invalid")).to_contain_text("Enter the MID the gateway gave")
    axe.check(page)
    screenshot(page, "facts-credentials-mid-error")


@pytest.fixture
def front(servers: Servers) -> Iterator[GatewayFront]:
    with gateway_front(servers.sandbox.url) as running:
        yield running


def test_a_busy_gateway_queues_the_step_and_says_so(page: Page, servers: Servers, auth,
                                                    sent_merchant, csrf_app, front, axe: Axe
                                                    ) -> None:
    base = sent_merchant("business", "owners", "signatory")
    csrf_app.extensions[SETTINGS_EXTENSION] = csrf_app.extensions[SETTINGS_EXTENSION] \
        .with_changes(onboarding_url=front.url)
    with csrf_app.app_context():
        csrf_app.extensions[CLIENT_EXTENSION] = (
            csrf_app.extensions[SETTINGS_EXTENSION],
            OnboardingClient(front.url, API_KEY, API_SECRET, retry=NO_RETRY))
    front.reply("PUT", "/bank-details", 429, {"reasonCode": "TOO_MANY_REQUESTS"},
                headers={"Retry-After": "90"})
    log_in(page, auth.create("ops"))
    page.goto(f"{base}/steps/bank")
    fill(page)
    send(page)
    banner = page.locator(".step-queued")
    expect(banner).to_contain_text("busy and asked the portal to slow down")
    expect(page.locator(".stepper__step[data-step='bank']")).to_have_attribute(
        "data-state", "queued")
    axe.check(page)
    screenshot(page, "facts-step-busy-queued")

    def docs_upload(answer: dict) -> dict:
        data = answer["data"]
        return {"status": "SUCCESS", "data": {
            "onboardingId": data.get("onboardingId") or data["merchantInfo"]["onboardingId"],
            "merchantDocType": "PAN", "documentStatus": "PENDING_VERIFICATION"}}

    front.rewrite("PUT", "/docs", docs_upload)
    page.get_by_role("button", name="Send now").click()
    page.goto(f"{base}/steps/documents")
    slot = page.locator("form.upload").first
    slot.locator("input[type=file]").set_input_files(files=[{
        "name": "doc.pdf", "mimeType": "application/pdf",
        "buffer": scenarios.sample_pdf("doc")}])
    slot.get_by_role("button", name="Upload and send").click()
    expect(page.locator("td.gateway-answer").first).to_contain_text(
        "the gateway reports the document as pending verification")
    axe.check(page)
    screenshot(page, "facts-document-status")
