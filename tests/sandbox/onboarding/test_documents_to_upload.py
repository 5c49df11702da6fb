"""Which documents a record still needs: per entity type, owners, signatory and penny drop."""

from __future__ import annotations

import pytest

from tests.sandbox.checklists import OWNER_AADHARS, pending
from tests.sandbox.payloads import address, bank, business, document, owners, signatory


def test_penny_drop_failure_asks_for_a_cancelled_cheque(partner, onboarding_id):
    data = partner.update_bank_details(onboarding_id, bank(account="9876543210")).record
    settlement = data.merchantInfo.settlementDetails
    assert (settlement.pennyDropStatus, settlement.nameAtBank) == ("FAILED", None)
    assert data.merchantOnboardingCheckListStatus.documentsToBeUploaded == ["CANCELLED_CHEQUE"]
    assert data.merchantOnboardingCheckListStatus.bankDetails == "COMPLETE"
    partner.upload_document(onboarding_id, document("CANCELLED_CHEQUE"))
    assert pending(partner, onboarding_id) == []


def test_penny_drop_needs_both_test_values(partner, onboarding_id):
    data = partner.update_bank_details(onboarding_id, bank(ifsc="HDFC0000001")).record
    assert data.merchantInfo.settlementDetails.pennyDropStatus == "FAILED"


def test_passing_penny_drop_later_drops_the_cheque(partner, onboarding_id):
    partner.update_bank_details(onboarding_id, bank(account="9876543210"))
    data = partner.update_bank_details(onboarding_id, bank()).record
    assert data.merchantInfo.settlementDetails.pennyDropStatus == "VERIFIED"
    assert data.merchantOnboardingCheckListStatus.documentsToBeUploaded == []


@pytest.mark.parametrize(("entity_type", "extra", "expected"), [
    ("INDIVIDUAL", {}, []),
    ("PROPRIETOR", {}, ["SOLE_PROP_DOC_1_UPLOAD", "SOLE_PROP_DOC_2_UPLOAD"]),
    ("PVT_LTD_COMPANY", {}, OWNER_AADHARS),
    ("PUBLIC_LTD_COMPANY", {}, OWNER_AADHARS),
    ("PARTNERSHIP_FIRM", {},
     [*OWNER_AADHARS, "PARTNERSHIP_DEED", "PARTNERSHIP_REGISTRATION_CERTIFICATE"]),
    ("PARTNERSHIP_FIRM", {"noPartnershipRegistrationCheck": True},
     [*OWNER_AADHARS, "PARTNERSHIP_DEED"]),
    ("LLP_FIRM", {}, ["LLP_AGREEMENT"]),
    ("INDIVIDUAL", {"operating": address("7 Park Street")}, ["OPERATING_ADDRESS_PROOF"]),
])
def test_documents_to_be_uploaded_per_entity_type(partner, onboarding_id, entity_type, extra,
                                                  expected):
    partner.update_business_details(onboarding_id, business(entity_type, **extra))
    partner.add_beneficial_owners(onboarding_id, owners())
    partner.update_auth_signatory(onboarding_id, signatory())
    assert pending(partner, onboarding_id) == expected


def test_signatory_who_is_not_an_owner_needs_a_representative_doc(partner, onboarding_id):
    partner.update_business_details(onboarding_id, business("INDIVIDUAL"))
    partner.update_auth_signatory(onboarding_id, signatory(pan="DEFPR1357Q", name="Ravi Iyer"))
    assert pending(partner, onboarding_id) == []  # owners not known yet
    partner.add_beneficial_owners(onboarding_id, owners())
    assert pending(partner, onboarding_id) == ["REPRESENTATIVE_DOC"]
    partner.upload_document(onboarding_id, document("REPRESENTATIVE_DOC"))
    assert pending(partner, onboarding_id) == []


def test_sole_proprietor_needs_two_distinct_business_proofs(partner, onboarding_id):
    partner.update_business_details(onboarding_id, business("PROPRIETOR"))
    partner.upload_document(onboarding_id, document("UDYAM"))
    assert pending(partner, onboarding_id) == ["SOLE_PROP_DOC_2_UPLOAD"]
    partner.upload_document(onboarding_id, document("UDYAM"))
    assert pending(partner, onboarding_id) == ["SOLE_PROP_DOC_2_UPLOAD"]
    partner.upload_document(onboarding_id, document("UTILITY_BILL"))
    assert pending(partner, onboarding_id) == []


def test_replacing_owners_replaces_their_aadhar_documents(partner, onboarding_id):
    partner.update_business_details(onboarding_id, business())
    partner.add_beneficial_owners(onboarding_id, owners())
    partner.upload_document(onboarding_id, document(OWNER_AADHARS[0]))
    new_owner = {"name": "Meera K. D'Souza", "pan": "DEFPR1357Q", "percentageOwnership": 30}
    partner.add_beneficial_owners(onboarding_id, [owners()[0], new_owner])
    assert pending(partner, onboarding_id) == ["DEFPR1357Q_MEERA_K_D_SOUZA_AADHAR"]


def test_document_that_is_not_pending_is_still_accepted(partner, onboarding_id):
    data = partner.upload_document(onboarding_id, document("IEC")).record
    assert data.merchantInfo.onboardingStatus == "IN_PROGRESS"
    assert data.merchantOnboardingCheckListStatus.documentsToBeUploaded == []
