"""What the onboarding API answers in the docs dialect (``portal.sandbox.common.dialect``).

- Bank details: ``{status: SUCCESS, message, data{onboardingId, bankVerificationStatus}}``
  (update-bank-details.mdx), the penny drop's outcome without the record.
- A document upload: ``{status: SUCCESS, message, data{onboardingId, merchantDocType,
  documentStatus}}`` (upload-documents.mdx).
- The checklist of every answer that carries one in the docs' words: what is to do
  ``INCOMPLETE``, a section done ``COMPLETE`` and a section that does not apply to the entity
  ``NOT_APPLICABLE`` (reference/response-structure, samples-rev4/checklist-not-applicable.docs.json:
  an individual's beneficial owners); the verification page's items once done in the openapi's
  words (samples-rev3/checklist-variants.openapi.json): DigiLocker ``SUCCESS``, video KYC
  ``PENDING_REVIEW`` while the review is open and ``SUCCESS`` once it is decided, the T&C
  acknowledgement ``SUCCESS``; a failed video KYC stays ``FAILED``.
- While the review asks for more information (RFI), ``data.rfiDetails`` beside the record:
  reference/faq names the field and no source shows its shape, so this one is the sandbox's
  (:func:`rfi_details`).

Every other answer keeps the contract's envelope.
"""

from __future__ import annotations

from typing import Any

from portal.gateway.onboarding.answers import (
    BankVerificationData,
    Checklist,
    DocumentStatusData,
    MerchantData,
)
from portal.gateway.onboarding.checklist_words import ChecklistState
from portal.gateway.onboarding.requests import DocumentUploadRequest
from portal.gateway.onboarding.vocabulary import OnboardingStatus
from portal.gateway.shapes import Envelope
from portal.sandbox.common.dialect import SUCCESS
from portal.sandbox.onboarding.present import checklist
from portal.sandbox.onboarding.records import OnboardingRecord

#: The openapi's word for a verification step done and waiting for the gateway's review.
IN_REVIEW = ChecklistState.PENDING_REVIEW
#: response-structure's words for an item to do, a section done, one that does not apply.
TO_DO = ChecklistState.INCOMPLETE
DONE = ChecklistState.COMPLETE
NOT_APPLICABLE = ChecklistState.NOT_APPLICABLE
#: The docs' ``documentStatus`` of a document received.
UPLOADED = "UPLOADED"
#: Statuses in which the compliance review is still open.
_REVIEW_OPEN = frozenset({OnboardingStatus.PENDING_REVIEW, OnboardingStatus.RFI})
#: The operations the docs answer in a shape of their own.
BANK_DETAILS = "update_bank_details"
DOCUMENT_UPLOAD = "upload_document"
DOCS_SHAPED = frozenset({BANK_DETAILS, DOCUMENT_UPLOAD})


def _finished(state: ChecklistState, in_review: bool = False) -> str:
    """A verification step's state: to do INCOMPLETE, done in the openapi's words."""
    if state is ChecklistState.PENDING:
        return TO_DO
    if state is not ChecklistState.COMPLETE:
        return str(state)
    return IN_REVIEW if in_review else SUCCESS


def docs_checklist(record: OnboardingRecord) -> Checklist:
    """The record's checklist in the docs' words."""
    words = checklist(record)
    inapplicable = record.inapplicable()
    for key, done in record.sections().items():
        setattr(words, key, NOT_APPLICABLE if key in inapplicable else DONE if done else TO_DO)
    words.documents = DONE if words.documents == ChecklistState.COMPLETE else TO_DO
    words.tncAcknowledged = SUCCESS if record.tnc_acknowledged else TO_DO
    words.digiLocker = _finished(record.digilocker)
    words.vkyc = _finished(record.vkyc, record.status in _REVIEW_OPEN)
    return words


def rfi_details(record: OnboardingRecord) -> dict[str, Any]:
    """``rfiDetails`` of a record the review asked more of: why, what, and a remark with a
    link (a page must show it as text)."""
    website = f" The website must show {', '.join(record.website_gaps)}." \
        if record.website_gaps else ""
    return {"reason": "The compliance review needs more information before it can decide."
                      + website,
            "documentsRequested": list(record.requested_documents),
            "remarks": "Upload each requested document as a PDF; the guidelines are at "
                       "https://gateway.example.com/help/rfi"}


def docs_words_differ(record: OnboardingRecord) -> Checklist | None:
    """The record's checklist in the openapi's words where they differ from the contract's
    (a step acknowledged or finished), else None: the dialect changes nothing of it yet."""
    words = docs_checklist(record)
    return words if words != checklist(record) else None


def docs_answer(operation: str, data: dict[str, Any], request: Any) -> dict[str, Any] | None:
    """The docs' whole answer to ``operation``, given the contract's ``data`` of its record and
    the validated ``request``; None where the docs show no shape of their own."""
    if operation == BANK_DETAILS:
        info = MerchantData.model_validate(data).merchantInfo
        penny_drop = info.settlementDetails.pennyDropStatus if info.settlementDetails else None
        answer: Any = BankVerificationData(onboardingId=info.onboardingId,
                                           bankVerificationStatus=str(penny_drop))
        message = "Bank details updated successfully."
    elif operation == DOCUMENT_UPLOAD and isinstance(request, DocumentUploadRequest):
        answer = DocumentStatusData(
            onboardingId=MerchantData.model_validate(data).merchantInfo.onboardingId,
            merchantDocType=request.merchantDocType, documentStatus=UPLOADED)
        message = "Document uploaded successfully."
    else:
        return None
    return Envelope(status=SUCCESS, message=message,
                    data=answer.model_dump()).model_dump(exclude_unset=True)
