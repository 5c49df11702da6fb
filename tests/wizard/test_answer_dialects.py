"""The wizard with the gateway answering in the docs' dialect (docs/gateway-contract.md, "Reading
answers"): a front
before the sandbox hands the portal the sandbox's answers rewritten as the docs show them, or
answers it can not read at all. Nothing is a 500, nothing is "failed"; the status read fills in
what a short answer leaves out."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.core.models.document import StoredDocument
from portal.core.models.merchant import CreateState
from portal.domain.onboarding import scenarios
from tests.support.gateway_front import GatewayFront, gateway_front
from tests.support.rows import stored
from tests.wizard.support import onboard, point_gateway_at, send_through_pages, typed, upload

STATUS = "/status"


def docs_bank_answer(answer: dict[str, Any]) -> dict[str, Any]:
    """The sandbox's bank-details answer as update-bank-details.mdx shows it (as it is when the
    sandbox speaks the docs' dialect already)."""
    if "merchantInfo" not in answer["data"]:
        return answer
    info = answer["data"]["merchantInfo"]
    return {"status": "SUCCESS", "message": "Bank details updated successfully.",
            "data": {"onboardingId": info["onboardingId"],
                     "bankVerificationStatus": info["settlementDetails"]["pennyDropStatus"]}}


def docs_upload_answer(answer: dict[str, Any]) -> dict[str, Any]:
    """The sandbox's upload answer as upload-documents.mdx shows it, in either dialect."""
    data = answer["data"]
    onboarding_id = data["merchantInfo"]["onboardingId"] if "merchantInfo" in data \
        else data["onboardingId"]
    return {"status": "SUCCESS", "message": "Document uploaded successfully.",
            "data": {"onboardingId": onboarding_id, "merchantDocType": "PAN",
                     "documentStatus": "UPLOADED"}}


@pytest.fixture
def front(app, sandbox) -> Iterator[GatewayFront]:
    """The portal talks to the sandbox through a front (set up after the merchant exists)."""
    with gateway_front(sandbox.url) as running:
        yield running


def through(app, front: GatewayFront) -> GatewayFront:
    point_gateway_at(app, front.url)
    return front


def outcomes(app, action: str) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(AuditEvent.outcome)
                                       .where(AuditEvent.action == action)
                                       .order_by(AuditEvent.id)))


def flashes(page) -> list[str]:
    return [p.get_text(" ", strip=True) for p in page.soup.select(".flash")]


@pytest.mark.parametrize(("scenario", "outcome", "follow_up"), [
    (scenarios.HAPPY, "VERIFIED", False), (scenarios.PENNY_DROP_FAILS, "FAILED", True)])
def test_the_docs_bank_answer_sends_the_step_and_the_status_read_tells_the_rest(
        browser, app, new_merchant, front, scenario, outcome, follow_up):
    through(app, front).rewrite("PUT", "/bank-details", docs_bank_answer)
    page = browser.submit(browser.get(f"/merchants/{new_merchant}/steps/bank"),
                          typed(scenario, "bank"))
    assert page.response.status_code == 200
    merchant = stored(app, new_merchant)
    assert merchant.penny_drop_status == outcome
    assert page.step_states()["bank"] == ("needs_attention" if follow_up else "sent")
    assert ("CANCELLED_CHEQUE" in merchant.documents_outstanding) is follow_up  # from the read
    assert front.received[-1].endswith(STATUS)
    assert ("cancelled cheque" in " ".join(flashes(page))) is follow_up
    assert merchant.checklist["bankDetails"] == "COMPLETE"


def test_the_docs_upload_answer_keeps_the_documents_status(browser, app, front):
    merchant_id = send_through_pages(browser, ("business", "owners", "bank", "signatory"))
    through(app, front).rewrite("PUT", "/docs", docs_upload_answer)
    page = browser.get(f"/merchants/{merchant_id}/steps/documents")
    slot = stored(app, merchant_id).documents_outstanding[0]
    page = upload(browser, page, slot, scenarios.sample_pdf(slot), "doc.pdf")
    assert page.response.status_code == 200
    with app.app_context():
        document = db.session.scalars(select(StoredDocument)).one()
        assert (document.status, document.gateway_status) == ("sent", "UPLOADED")
        assert document.gateway_answer == \
            "Accepted; the gateway reports the document as uploaded"
    assert slot not in stored(app, merchant_id).documents_outstanding  # the read said so
    assert "the gateway reports the document as uploaded" in page.text()


@pytest.mark.parametrize("body", [b"OK", b'{"status": "SUCCESS"}', b'{"data": []}'])
def test_an_unreadable_answer_to_a_step_marks_it_sent_and_reads_the_status(
        browser, app, new_merchant, front, body):
    through(app, front).reply("PUT", "/business-details", 200, body, forward=True)
    page = browser.submit(browser.get(f"/merchants/{new_merchant}/steps/business"),
                          typed(scenarios.HAPPY, "business"))
    assert page.response.status_code == 200
    assert page.response.request.path.endswith("/steps/owners")  # sent: the wizard moves on
    assert page.step_states()["business"] == "sent"
    assert any("its answer could not be read" in text for text in flashes(page))
    assert stored(app, new_merchant).status == "IN_PROGRESS"  # from the status read
    assert front.received[-1].endswith(STATUS)
    assert outcomes(app, "step.send.business") == ["unreadable"]


def test_an_unreadable_answer_to_the_create_leaves_its_outcome_unknown(browser, app, front):
    through(app, front).reply("POST", "/onboard", 201, {"status": "SUCCESS"}, forward=True)
    page = browser.submit(browser.get("/merchants/new"), typed(scenarios.HAPPY, "create"))
    assert page.response.status_code == 200
    merchant_id = int(page.response.request.path.split("/")[2])
    merchant = stored(app, merchant_id)
    assert (merchant.create_state, merchant.onboarding_id) == (CreateState.OUTCOME_UNKNOWN, None)
    assert "it may or may not have been created" in page.text()
    assert outcomes(app, "step.send.create") == ["unknown"]


def test_checklist_variants_lock_steps_and_read_in_words(browser, app, new_merchant, front,
                                                         sandbox):
    merchant_id = onboard(browser, app)
    backend = sandbox.state.onboarding
    backend.acknowledge_tnc(stored(app, merchant_id).onboarding_id)

    def docs_checklist(answer: dict[str, Any]) -> dict[str, Any]:
        checklist = answer["data"]["merchantOnboardingCheckListStatus"]
        checklist.update(tncAcknowledged=True, digiLocker="SUCCESS", vkyc="PENDING_REVIEW")
        return answer

    through(app, front).rewrite("GET", STATUS, docs_checklist)
    page = browser.get(f"/merchants/{merchant_id}/status")
    items = {dd["data-item"]: dd.get_text(strip=True)
             for dd in page.soup.select("dl.checklist dd")}
    assert items["vkyc"] == "Done, under review by the gateway"
    assert items["tncAcknowledged"] == items["digiLocker"] == "Complete"
    states = page.step_states()
    assert states["business"] == states["signatory"] == "locked"  # T&C acknowledged (true)
    assert states["owners"] == states["bank"] == "locked"  # video KYC done, under review
    assert states["verification"] == "sent"
