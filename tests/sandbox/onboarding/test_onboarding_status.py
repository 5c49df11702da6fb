"""The onboarding status machine: INITIATED to PENDING_VERIFICATION, review and RFI."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from portal.gateway.errors import ValidationFailed
from portal.sandbox.common.errors import ApiError
from tests.sandbox.checklists import OWNER_AADHARS, SECTIONS, pending
from tests.sandbox.payloads import (
    CALLBACK,
    bank,
    business,
    document,
    fill_every_step,
    owners,
    products,
    signatory,
)


def test_happy_path_reaches_pending_verification(sandbox_server, partner, onboarding_id):
    data = partner.update_business_details(onboarding_id, business()).record
    assert data.merchantInfo.onboardingStatus == "IN_PROGRESS"
    assert data.merchantOnboardingCheckListStatus.businessDetails == "COMPLETE"

    data = partner.add_beneficial_owners(onboarding_id, owners()).record
    assert data.merchantOnboardingCheckListStatus.documentsToBeUploaded == OWNER_AADHARS

    answer = partner.update_bank_details(onboarding_id, bank())
    settlement = answer.record.merchantInfo.settlementDetails
    assert settlement.pennyDropStatus == "VERIFIED"
    assert settlement.nameAtBank == "ACME WIDGETS PVT LTD"

    data = partner.update_auth_signatory(onboarding_id, signatory()).record
    assert data.merchantOnboardingCheckListStatus.authorisedSignatory == "COMPLETE"
    assert data.merchantOnboardingCheckListStatus.documentsToBeUploaded == OWNER_AADHARS

    for doc_type in OWNER_AADHARS:
        data = partner.upload_document(onboarding_id, document(doc_type)).record
    assert data.merchantOnboardingCheckListStatus.documentsToBeUploaded == []
    assert data.merchantOnboardingCheckListStatus.documents == "COMPLETE"
    assert data.merchantInfo.onboardingStatus == "IN_PROGRESS"

    data = partner.configure_products(onboarding_id, products()).record
    assert data.merchantInfo.onboardingStatus == "PENDING_VERIFICATION"

    redirect = partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    assert redirect.onboardingId == onboarding_id
    link = urlsplit(redirect.redirectLink)
    assert f"{link.scheme}://{link.netloc}" == sandbox_server.url
    assert link.path == "/verification"
    assert parse_qs(link.query)["onboardingId"] == [onboarding_id]

    status = partner.get_status(onboarding_id)
    assert status.merchantInfo.onboardingStatus == "PENDING_VERIFICATION"
    checklist = status.merchantOnboardingCheckListStatus
    assert checklist.documentsToBeUploaded == []
    assert all(getattr(checklist, key) == "COMPLETE" for key in [*SECTIONS, "documents"])
    assert (checklist.tncAcknowledged, checklist.digiLocker, checklist.vkyc) == (
        "PENDING", "PENDING", "PENDING")


def test_products_alone_move_initiated_to_in_progress(partner, onboarding_id):
    data = partner.configure_products(onboarding_id, products()).record
    assert data.merchantInfo.onboardingStatus == "IN_PROGRESS"


def test_change_that_leaves_something_outstanding_leaves_pending_verification(partner,
                                                                            onboarding_id):
    fill_every_step(partner, onboarding_id)
    data = partner.update_bank_details(onboarding_id, bank(account="9876543210")).record
    assert data.merchantInfo.onboardingStatus == "IN_PROGRESS"


def test_verification_complete_moves_to_pending_review(sandbox_server, partner, onboarding_id):
    fill_every_step(partner, onboarding_id)
    sandbox_server.backend.complete_verification(onboarding_id)
    status = partner.get_status(onboarding_id)
    assert status.merchantInfo.onboardingStatus == "PENDING_REVIEW"
    checklist = status.merchantOnboardingCheckListStatus
    assert (checklist.tncAcknowledged, checklist.digiLocker, checklist.vkyc) == (
        "COMPLETE", "COMPLETE", "COMPLETE")


def test_verification_needs_a_ready_record(sandbox_server, onboarding_id):
    with pytest.raises(ApiError) as caught:
        sandbox_server.backend.complete_verification(onboarding_id)
    assert caught.value.status == 400
    assert caught.value.field_errors[0].field == "onboardingStatus"


@pytest.mark.parametrize(("registered_name", "outcome"), [
    ("Acme Widgets Private Limited", "APPROVED"),
    ("Acme REJECT Widgets Ltd", "REJECTED"),
])
def test_review_outcome_follows_registered_name(sandbox_server, partner, onboarding_id,
                                                registered_name, outcome):
    fill_every_step(partner, onboarding_id)
    partner.update_business_details(onboarding_id, business(registeredName=registered_name))
    sandbox_server.backend.complete_verification(onboarding_id)
    assert sandbox_server.backend.finish_review(onboarding_id) == outcome
    assert partner.get_status(onboarding_id).merchantInfo.onboardingStatus == outcome


def test_rfi_asks_for_a_document_and_returns_to_review(sandbox_server, partner, onboarding_id):
    fill_every_step(partner, onboarding_id)
    partner.update_business_details(onboarding_id, business(registeredName="Acme RFI Ltd"))
    backend = sandbox_server.backend
    backend.complete_verification(onboarding_id)
    assert backend.finish_review(onboarding_id) == "RFI"
    assert pending(partner, onboarding_id) == ["BANK_STATEMENT"]
    with pytest.raises(ValidationFailed):  # only the requested documents are taken now
        partner.upload_document(onboarding_id, document("IEC"))
    data = partner.upload_document(onboarding_id, document("BANK_STATEMENT")).record
    assert data.merchantInfo.onboardingStatus == "PENDING_REVIEW"
    assert data.merchantOnboardingCheckListStatus.documentsToBeUploaded == []
    assert backend.finish_review(onboarding_id) == "APPROVED"
