"""The onboarding API in the docs dialect (``answerDialect: "docs"``): bank details and document
uploads answered as the docs show them, every checklist in the docs' words (what is to do
INCOMPLETE, an individual's beneficial owners NOT_APPLICABLE, the verification page's items
done in the openapi's words); the records the same as in the contract's dialect. Read raw (the
answer as sent)."""

from __future__ import annotations

from portal.gateway.onboarding.client import OnboardingClient
from tests.conformance.rev4_samples import sample as rev4_sample
from tests.sandbox.payloads import CALLBACK, bank, business, document, owners, products, signatory
from tests.sandbox.raw_calls import raw
from tests.sandbox.verification_pages import ready_link, status_of, walk
from tests.support.sandbox import RunningSandbox, speak

CHECKLIST = "merchantOnboardingCheckListStatus"
VERIFICATION_KEYS = ("tncAcknowledged", "digiLocker", "vkyc")


def verification_words(partner: OnboardingClient, onboarding_id: str) -> tuple[str, ...]:
    """The checklist's T&C, DigiLocker and video KYC values, as the status call answers them."""
    checklist = raw(partner, "get_status", onboardingId=onboarding_id).json()["data"][CHECKLIST]
    return tuple(checklist[key] for key in VERIFICATION_KEYS)


def test_bank_details_answer_the_penny_drop_alone(sandbox_server, partner, onboarding_id):
    speak(sandbox_server, "docs")
    for details, outcome in ((bank(), "VERIFIED"), (bank(account="9876543210"), "FAILED")):
        answer = raw(partner, "update_bank_details", details, onboardingId=onboarding_id)
        assert answer.status_code == 200
        assert answer.json() == {
            "status": "SUCCESS", "message": "Bank details updated successfully.",
            "data": {"onboardingId": onboarding_id, "bankVerificationStatus": outcome}}
    status = raw(partner, "get_status", onboardingId=onboarding_id).json()["data"]
    assert status["merchantInfo"]["settlementDetails"]["pennyDropStatus"] == "FAILED"
    assert status[CHECKLIST]["bankDetails"] == "COMPLETE"
    assert "CANCELLED_CHEQUE" in status[CHECKLIST]["documentsToBeUploaded"]


def test_a_document_upload_answers_the_documents_status_alone(sandbox_server, partner,
                                                             onboarding_id):
    speak(sandbox_server, "docs")
    answer = raw(partner, "upload_document", document("PAN"), onboardingId=onboarding_id)
    assert answer.status_code == 200
    assert answer.json() == {
        "status": "SUCCESS", "message": "Document uploaded successfully.",
        "data": {"onboardingId": onboarding_id, "merchantDocType": "PAN",
                 "documentStatus": "UPLOADED"}}


def test_other_answers_keep_the_envelope_with_the_checklist_in_the_docs_words(
        sandbox_server, partner, onboarding_id):
    speak(sandbox_server, "docs")
    body = raw(partner, "update_business_details", business(),
               onboardingId=onboarding_id).json()
    assert body["data"]["merchantInfo"]["onboardingId"] == onboarding_id
    checklist = body["data"][CHECKLIST]
    assert (checklist["businessDetails"], checklist["bankDetails"]) == ("COMPLETE", "INCOMPLETE")
    assert checklist["beneficialOwners"] == "INCOMPLETE"  # a company has owners
    assert tuple(checklist[key] for key in VERIFICATION_KEYS) == ("INCOMPLETE",) * 3


def individual(partner: OnboardingClient, onboarding_id: str) -> None:
    """Every section of an individual but the owners (it has none), no document outstanding."""
    partner.update_business_details(onboarding_id, business("INDIVIDUAL"))
    partner.update_bank_details(onboarding_id, bank())
    partner.update_auth_signatory(onboarding_id, signatory())
    partner.configure_products(onboarding_id, products())


def test_an_individuals_owners_do_not_apply_and_its_verification_link_is_offered(
        sandbox_server, partner, onboarding_id):
    individual(partner, onboarding_id)
    contract = raw(partner, "get_status", onboardingId=onboarding_id).json()["data"]
    speak(sandbox_server, "docs")
    docs = raw(partner, "get_status", onboardingId=onboarding_id).json()["data"]
    assert contract[CHECKLIST]["beneficialOwners"] == "COMPLETE"  # the contract's words
    assert docs[CHECKLIST]["beneficialOwners"] == "NOT_APPLICABLE"
    assert docs[CHECKLIST]["documents"] == "COMPLETE"
    assert docs["merchantInfo"]["onboardingStatus"] == "PENDING_VERIFICATION"
    link = partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    assert link.redirectLink


def test_an_individuals_checklist_is_the_response_structure_sample(
        sandbox_server, partner, onboarding_id):
    found = rev4_sample("checklist-not-applicable.docs.json")
    assert found.source.startswith(
        "PayGlocal-Technologies/payglocal-dev-docs reference/response-structure.mdx@3912e80")
    individual(partner, onboarding_id)
    speak(sandbox_server, "docs")
    checklist = raw(partner, "get_status", onboardingId=onboarding_id).json()["data"][CHECKLIST]
    assert checklist == found.body["data"][CHECKLIST]


def test_an_owner_sent_for_an_individual_still_does_not_apply(sandbox_server, partner,
                                                              onboarding_id):
    partner.update_business_details(onboarding_id, business("INDIVIDUAL"))
    partner.add_beneficial_owners(onboarding_id, owners())
    speak(sandbox_server, "docs")
    checklist = raw(partner, "get_status", onboardingId=onboarding_id).json()["data"][CHECKLIST]
    assert checklist["beneficialOwners"] == "NOT_APPLICABLE"


def test_the_checklist_says_success_and_pending_review_through_the_review(
        sandbox_server: RunningSandbox, partner, onboarding_id):
    walk(sandbox_server.url, ready_link(partner, onboarding_id))
    assert verification_words(partner, onboarding_id) == ("COMPLETE",) * 3
    speak(sandbox_server, "docs")
    assert verification_words(partner, onboarding_id) == ("SUCCESS", "SUCCESS",
                                                          "PENDING_REVIEW")
    sandbox_server.backend.tick()
    assert verification_words(partner, onboarding_id) == ("SUCCESS",) * 3
    speak(sandbox_server, "contract")
    assert status_of(partner, onboarding_id) == "APPROVED"
    assert verification_words(partner, onboarding_id) == ("COMPLETE",) * 3


def test_an_rfi_keeps_video_kyc_in_review(sandbox_server, partner, onboarding_id):
    walk(sandbox_server.url, ready_link(partner, onboarding_id, registeredName="Acme RFI Ltd"))
    sandbox_server.backend.tick()
    speak(sandbox_server, "docs")
    assert verification_words(partner, onboarding_id)[2] == "PENDING_REVIEW"
