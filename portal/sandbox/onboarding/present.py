"""How a stored onboarding record is shown in answers: ``merchantInfo`` and the checklist."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from portal.gateway.onboarding.answers import (
    AddressInfo,
    BusinessDetailsInfo,
    Checklist,
    ContactInfo,
    MerchantData,
    MerchantInfo,
    PersonInfo,
    SettlementInfo,
    SignatoryInfo,
)
from portal.gateway.onboarding.checklist_words import ChecklistState
from portal.sandbox.onboarding.documents import pending_documents
from portal.sandbox.onboarding.records import OnboardingRecord

#: Sections whose content decides which documents are needed.
_DOCUMENT_SECTIONS = ("businessDetails", "beneficialOwners", "bankDetails", "authorisedSignatory")


def mask_account(number: str) -> str:
    """An account number with all but its last four digits shown as ``X``."""
    return "X" * max(len(number) - 4, 0) + number[-4:]


def _state(done: bool) -> ChecklistState:
    return ChecklistState.COMPLETE if done else ChecklistState.PENDING


def checklist(record: OnboardingRecord) -> Checklist:
    """``merchantOnboardingCheckListStatus`` of a record, in the contract's words: a section
    that does not apply to the entity is COMPLETE (the docs' dialect says NOT_APPLICABLE)."""
    sections = record.sections()
    pending = pending_documents(record)
    documents_done = not pending and all(sections[s] for s in _DOCUMENT_SECTIONS)
    return Checklist(
        **{key: _state(done) for key, done in sections.items()},
        documents=_state(documents_done),
        tncAcknowledged=_state(record.tnc_acknowledged),
        digiLocker=record.digilocker,
        vkyc=record.vkyc,
        documentsToBeUploaded=pending,
    )


def echoed(sent: BaseModel, answer: type[BaseModel]) -> dict[str, Any]:
    """The fields of a sent body that its answer shows under the same name, as JSON values:
    derived from the two shapes, so a field added to both is echoed without another edit."""
    values = sent.model_dump(mode="json", exclude_none=True)
    return {name: values[name] for name in answer.model_fields if name in values}


def _business(record: OnboardingRecord) -> BusinessDetailsInfo | None:
    business = record.business
    if business is None:
        return None
    # the request nests the addresses under ``address``; the answer keeps them flat (spec 2.3)
    registered = AddressInfo(**business.address.businessRegisteredAddress.model_dump())
    operating = business.address.businessOperatingAddress
    return BusinessDetailsInfo(
        **echoed(business, BusinessDetailsInfo),
        businessMonthlySize=business.expectedMonthlyVolume.amount,
        businessRegisteredAddress=registered,
        businessOperatingAddress=AddressInfo(**operating.model_dump()) if operating else registered,
    )


def _signatory(record: OnboardingRecord) -> SignatoryInfo | None:
    signatory = record.signatory
    if signatory is None:
        return None
    return SignatoryInfo(**{**echoed(signatory, SignatoryInfo),
                            "contact": ContactInfo(**echoed(signatory.contact, ContactInfo))})


def _settlement(record: OnboardingRecord) -> SettlementInfo | None:
    bank = record.bank
    if bank is None:
        return None
    return SettlementInfo(**{**echoed(bank, SettlementInfo),
                             "bankAccountNumber": mask_account(bank.bankAccountNumber)},
                          pennyDropStatus=record.penny_drop, nameAtBank=record.name_at_bank)


def merchant_info(record: OnboardingRecord) -> MerchantInfo:
    """``merchantInfo``: spec 2.3 plus the status; the account number masked."""
    owners = [
        PersonInfo(designation=o.designation, name=o.name, pan=o.pan,
                   percentageOwnership=float(o.percentageOwnership))
        for o in record.owners or []
    ]
    return MerchantInfo(
        onboardingId=record.onboarding_id,
        partnerOnboardingId=record.external_id,
        onboardingStatus=record.status,
        businessDetails=_business(record),
        beneficialOwnerDetails=owners,
        authorisedSignatoryDetails=_signatory(record),
        settlementDetails=_settlement(record),
    )


def merchant_data(record: OnboardingRecord, words: Checklist | None = None) -> dict[str, Any]:
    """``data`` of every record operation, as JSON; ``words`` is the checklist in another
    dialect's words (the contract's by default)."""
    data = MerchantData(merchantInfo=merchant_info(record),
                        merchantOnboardingCheckListStatus=words or checklist(record))
    return data.model_dump(mode="json")
