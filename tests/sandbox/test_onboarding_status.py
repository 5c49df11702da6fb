"""The onboarding journey: status machine, documents, penny drop, redirect gate, tokens, locks."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest

from portal.gateway.errors import ValidationFailed
from portal.sandbox.errors import ApiError
from portal.sandbox.onboarding.backend import TOKEN_LIFETIME
from tests.sandbox.payloads import (
    CALLBACK,
    OWNER_PAN,
    SECOND_OWNER_PAN,
    address,
    bank,
    business,
    document,
    fill_every_step,
    owners,
    products,
    signatory,
)

OWNER_AADHARS = [f"{OWNER_PAN}_ASHA_RAO_AADHAR", f"{SECOND_OWNER_PAN}_VIKRAM_MEHTA_AADHAR"]
SECTIONS = ["businessDetails", "beneficialOwners", "bankDetails", "authorisedSignatory",
            "products"]


def pending(client, onboarding_id: str) -> list[str]:
    """documentsToBeUploaded of a record."""
    return client.get_status(onboarding_id).merchantOnboardingCheckListStatus.documentsToBeUploaded


def token_of(link: str) -> str:
    """The token in a redirect link."""
    return parse_qs(urlsplit(link).query)["token"][0]


def test_happy_path_reaches_pending_verification(sandbox_server, partner, onboarding_id):
    data = partner.update_business_details(onboarding_id, business())
    assert data.merchantInfo.onboardingStatus == "IN_PROGRESS"
    assert data.merchantOnboardingCheckListStatus.businessDetails == "COMPLETE"

    data = partner.add_beneficial_owners(onboarding_id, owners())
    assert data.merchantOnboardingCheckListStatus.documentsToBeUploaded == OWNER_AADHARS

    settlement = partner.update_bank_details(onboarding_id, bank()).merchantInfo.settlementDetails
    assert settlement.pennyDropStatus == "VERIFIED"
    assert settlement.nameAtBank == "ACME WIDGETS PVT LTD"

    data = partner.update_auth_signatory(onboarding_id, signatory())
    assert data.merchantOnboardingCheckListStatus.authorisedSignatory == "COMPLETE"
    assert data.merchantOnboardingCheckListStatus.documentsToBeUploaded == OWNER_AADHARS

    for doc_type in OWNER_AADHARS:
        data = partner.upload_document(onboarding_id, document(doc_type))
    assert data.merchantOnboardingCheckListStatus.documentsToBeUploaded == []
    assert data.merchantOnboardingCheckListStatus.documents == "COMPLETE"
    assert data.merchantInfo.onboardingStatus == "IN_PROGRESS"

    data = partner.configure_products(onboarding_id, products())
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


def test_penny_drop_failure_asks_for_a_cancelled_cheque(partner, onboarding_id):
    data = partner.update_bank_details(onboarding_id, bank(account="9876543210"))
    settlement = data.merchantInfo.settlementDetails
    assert (settlement.pennyDropStatus, settlement.nameAtBank) == ("FAILED", None)
    assert data.merchantOnboardingCheckListStatus.documentsToBeUploaded == ["CANCELLED_CHEQUE"]
    assert data.merchantOnboardingCheckListStatus.bankDetails == "COMPLETE"
    partner.upload_document(onboarding_id, document("CANCELLED_CHEQUE"))
    assert pending(partner, onboarding_id) == []


def test_penny_drop_needs_both_test_values(partner, onboarding_id):
    data = partner.update_bank_details(onboarding_id, bank(ifsc="HDFC0000001"))
    assert data.merchantInfo.settlementDetails.pennyDropStatus == "FAILED"


def test_passing_penny_drop_later_drops_the_cheque(partner, onboarding_id):
    partner.update_bank_details(onboarding_id, bank(account="9876543210"))
    data = partner.update_bank_details(onboarding_id, bank())
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
    data = partner.upload_document(onboarding_id, document("IEC"))
    assert data.merchantInfo.onboardingStatus == "IN_PROGRESS"
    assert data.merchantOnboardingCheckListStatus.documentsToBeUploaded == []


def test_redirect_gate_lists_every_missing_section(partner, onboarding_id):
    with pytest.raises(ValidationFailed) as caught:
        partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    assert [e.field for e in caught.value.field_errors] == SECTIONS


def test_redirect_gate_lists_every_outstanding_document(partner, onboarding_id):
    partner.update_business_details(onboarding_id, business())
    partner.add_beneficial_owners(onboarding_id, owners())
    partner.update_bank_details(onboarding_id, bank(account="9876543210"))
    partner.update_auth_signatory(onboarding_id, signatory())
    with pytest.raises(ValidationFailed) as caught:
        partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    assert [e.field for e in caught.value.field_errors] == [
        "products",
        *(f"documentsToBeUploaded.{doc}" for doc in [*OWNER_AADHARS, "CANCELLED_CHEQUE"]),
    ]


def test_loopback_http_callback_is_allowed(partner, onboarding_id):
    fill_every_step(partner, onboarding_id)
    for url in ("http://127.0.0.1:5000/done", "http://localhost/done", "http://[::1]:8080/x"):
        assert partner.get_verification_redirect(onboarding_id, {"callBackUrl": url})


def test_token_is_stored_single_use_and_expires_after_24_hours(sandbox_server, partner,
                                                               onboarding_id):
    fill_every_step(partner, onboarding_id)
    backend, clock = sandbox_server.backend, sandbox_server.clock
    link = partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    token = backend.lookup_token(token_of(link.redirectLink))
    assert token is not None
    assert (token.onboarding_id, token.callback_url) == (onboarding_id, CALLBACK)
    assert token.expires_at == clock.now() + TOKEN_LIFETIME
    clock.advance((TOKEN_LIFETIME - timedelta(seconds=1)).total_seconds())
    assert backend.lookup_token(token.token) is not None
    clock.advance(1)
    assert backend.lookup_token(token.token) is None
    assert backend.consume_token(token.token) is None


def test_token_can_be_consumed_once(sandbox_server, partner, onboarding_id):
    fill_every_step(partner, onboarding_id)
    link = partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    token = token_of(link.redirectLink)
    assert sandbox_server.backend.consume_token(token) is not None
    assert sandbox_server.backend.consume_token(token) is None
    assert sandbox_server.backend.lookup_token(token) is None


def test_each_redirect_issues_a_new_token(partner, onboarding_id):
    fill_every_step(partner, onboarding_id)
    first = partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    second = partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    assert token_of(first.redirectLink) != token_of(second.redirectLink)


def test_tnc_locks_business_details_and_signatory(sandbox_server, partner, onboarding_id):
    fill_every_step(partner, onboarding_id)
    sandbox_server.backend.acknowledge_tnc(onboarding_id)
    assert partner.get_status(onboarding_id).merchantOnboardingCheckListStatus.tncAcknowledged \
        == "COMPLETE"
    with pytest.raises(ValidationFailed) as caught:
        partner.update_business_details(onboarding_id, business())
    assert [e.field for e in caught.value.field_errors] == ["businessDetails"]
    with pytest.raises(ValidationFailed) as caught:
        partner.update_auth_signatory(onboarding_id, signatory())
    assert [e.field for e in caught.value.field_errors] == ["authorisedSignatory"]
    # not locked yet: owners, bank and documents
    partner.add_beneficial_owners(onboarding_id, owners())
    partner.update_bank_details(onboarding_id, bank())
    partner.upload_document(onboarding_id, document("IEC"))


@pytest.mark.parametrize(("name", "body", "section"), [
    ("add_beneficial_owners", owners(), "beneficialOwners"),
    ("update_bank_details", bank(), "bankDetails"),
    ("upload_document", document("IEC"), "documents"),
    ("update_business_details", business(), "businessDetails"),
    ("update_auth_signatory", signatory(), "authorisedSignatory"),
])
def test_verification_locks_sections(sandbox_server, partner, onboarding_id, name, body,
                                     section):
    fill_every_step(partner, onboarding_id)
    sandbox_server.backend.complete_verification(onboarding_id)
    with pytest.raises(ValidationFailed) as caught:
        getattr(partner, name)(onboarding_id, body)
    assert [e.field for e in caught.value.field_errors] == [section]


def test_redirect_after_verification_is_400(sandbox_server, partner, onboarding_id):
    fill_every_step(partner, onboarding_id)
    sandbox_server.backend.complete_verification(onboarding_id)
    with pytest.raises(ValidationFailed) as caught:
        partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    assert [e.field for e in caught.value.field_errors] == ["onboardingStatus"]


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
    data = partner.upload_document(onboarding_id, document("BANK_STATEMENT"))
    assert data.merchantInfo.onboardingStatus == "PENDING_REVIEW"
    assert data.merchantOnboardingCheckListStatus.documentsToBeUploaded == []
    assert backend.finish_review(onboarding_id) == "APPROVED"


def test_products_alone_move_initiated_to_in_progress(partner, onboarding_id):
    data = partner.configure_products(onboarding_id, products())
    assert data.merchantInfo.onboardingStatus == "IN_PROGRESS"


def test_change_that_leaves_something_outstanding_leaves_pending_verification(partner,
                                                                            onboarding_id):
    fill_every_step(partner, onboarding_id)
    data = partner.update_bank_details(onboarding_id, bank(account="9876543210"))
    assert data.merchantInfo.onboardingStatus == "IN_PROGRESS"
