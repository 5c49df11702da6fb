"""The onboarding API's answers, read tolerantly (unknown fields kept), as docs/gateway-contract.md
reads them."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from portal.gateway.onboarding.checklist_words import ChecklistState
from portal.gateway.onboarding.vocabulary import OnboardingStatus, PennyDropStatus, known_status
from portal.gateway.shapes import (
    ResponseModel,
)


class AddressInfo(ResponseModel):
    """An address as the gateway returns it."""

    streetAddress1: str = ""
    streetAddress2: str = ""
    zipcode: str = ""
    stateCode: str = ""
    city: str = ""
    state: str = ""


class BusinessDetailsInfo(ResponseModel):
    """Business details as the gateway returns them."""

    entityType: str | None = None
    gstNumber: str | None = None
    natureOfBusiness: str | None = None
    registeredName: str | None = None
    tradeName: str | None = None
    iec: str | None = None
    businessMonthlySize: str | None = None
    websiteUrl: str | None = None
    purposeCode: str | None = None
    businessRegisteredAddress: AddressInfo | None = None
    businessOperatingAddress: AddressInfo | None = None


class PersonInfo(ResponseModel):
    """A director or beneficial owner as the gateway returns them."""

    designation: str | None = None
    name: str | None = None
    pan: str | None = None
    percentageOwnership: float | None = None


class ContactInfo(ResponseModel):
    """Signatory contact as returned."""

    phone: str | None = None
    email: str | None = None


class SignatoryInfo(ResponseModel):
    """Authorised signatory as returned."""

    authSignatoryName: str | None = None
    authSignatoryPan: str | None = None
    contact: ContactInfo | None = None


class SettlementInfo(ResponseModel):
    """Bank details as returned, with the penny-drop outcome."""

    bankAccountNumber: str | None = None
    bankIfscCode: str | None = None
    accountHolderName: str | None = None
    accountType: str | None = None
    pennyDropStatus: PennyDropStatus | None = None
    nameAtBank: str | None = None


class MerchantInfo(ResponseModel):
    """The merchant record (spec 2.3 plus onboardingStatus; some pages say merchantStatus)."""

    onboardingId: str
    partnerOnboardingId: str | None = None
    onboardingStatus: str | None = None
    merchantStatus: str | None = None
    businessDetails: BusinessDetailsInfo | None = None
    directorDetails: list[PersonInfo] = Field(default_factory=list)
    beneficialOwnerDetails: list[PersonInfo] = Field(default_factory=list)
    authorisedSignatoryDetails: SignatoryInfo | None = None
    settlementDetails: SettlementInfo | None = None

    @property
    def reported_status(self) -> str:
        """The status as the gateway named it: onboardingStatus, else merchantStatus."""
        return (self.onboardingStatus or self.merchantStatus or "").strip()

    @property
    def status(self) -> OnboardingStatus | None:
        """The contract's status: the first of onboardingStatus, merchantStatus that is known."""
        for name in (self.onboardingStatus, self.merchantStatus):
            found = known_status(name)
            if found is not None:
                return found
        return None


class Checklist(ResponseModel):
    """``merchantOnboardingCheckListStatus``: what is done and what is outstanding."""

    businessDetails: str = ChecklistState.PENDING
    beneficialOwners: str = ChecklistState.PENDING
    bankDetails: str = ChecklistState.PENDING
    authorisedSignatory: str = ChecklistState.PENDING
    documents: str = ChecklistState.PENDING
    products: str = ChecklistState.PENDING
    tncAcknowledged: str = ChecklistState.PENDING
    digiLocker: str = ChecklistState.PENDING
    vkyc: str = ChecklistState.PENDING
    documentsToBeUploaded: list[str] = Field(default_factory=list)


class MerchantData(ResponseModel):
    """``data`` of every record operation."""

    merchantInfo: MerchantInfo
    merchantOnboardingCheckListStatus: Checklist = Field(default_factory=Checklist)
    #: What the review asks for, as the gateway sent it (reference/faq; no source shows its
    #: shape). Read only: a contract answer carries none.
    rfiDetails: Any = Field(default=None, exclude=True)


class BankVerificationData(ResponseModel):
    """``data`` of the docs' bank-details answer (api-reference update-bank-details.mdx): the
    penny drop's outcome without the record (docs/gateway-contract.md, "Reading answers")."""

    onboardingId: str
    bankVerificationStatus: str | None = None


class DocumentStatusData(ResponseModel):
    """``data`` of the docs' document-upload answer (api-reference upload-documents.mdx):
    the document's own status without the record (docs/gateway-contract.md, "Reading answers")."""

    onboardingId: str
    merchantDocType: str | None = None
    documentStatus: str | None = None


class RedirectData(ResponseModel):
    """``data`` of the verification redirect."""

    redirectLink: str
    onboardingId: str


class Subcategory(ResponseModel):
    """A business subcategory; its code is what natureOfBusiness takes."""

    categoryCode: str
    categoryName: str
    type: str | None = None


class Category(ResponseModel):
    """A top-level business category with its subcategories."""

    categoryCode: str
    categoryName: str
    subcategories: list[Subcategory] = Field(default_factory=list)


class CategoriesData(ResponseModel):
    """``data`` of the business-category lookup."""

    categories: list[Category]
