"""Request and response shapes of the partner onboarding API, defined once (as
docs/gateway-contract.md, "Partner onboarding", reads them).

The client builds bodies from these models; the sandbox validates bodies with them and
publishes their JSON Schema in its OpenAPI document; the wizard validates drafts with them.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Annotated, Any, Literal
from urllib.parse import quote

from pydantic import AfterValidator, Field, HttpUrl, PlainSerializer, RootModel, field_validator

from portal.gateway import rules
from portal.gateway.onboarding.checklist_words import ChecklistState
from portal.gateway.shapes import (
    Email,
    FieldError,
    Gstin,
    Ifsc,
    IndividualPan,
    NonEmpty,
    Pan,
    Phone,
    RequestModel,
    ResponseModel,
    dump,
)

PREFIX = "/gcc/v2/partner/merchant"


class OnboardingStatus(StrEnum):
    """The onboarding record's status (spec section 3)."""

    INITIATED = "INITIATED"
    IN_PROGRESS = "IN_PROGRESS"
    PENDING_VERIFICATION = "PENDING_VERIFICATION"
    PENDING_REVIEW = "PENDING_REVIEW"
    APPROVED = "APPROVED"
    REJECTED = "REJECTED"
    RFI = "RFI"


#: Statuses after which nothing changes any more.
FINAL_STATUSES = frozenset({OnboardingStatus.APPROVED, OnboardingStatus.REJECTED})

#: Status names some of the gateway's pages use, on the contract's machine (docs/gateway-facts.md
#: A3): the lifecycle page's UNDER_REVIEW and the quickstart's VERIFICATION_COMPLETE both mean the
#: merchant finished the verification page and the review runs; the webhooks' ACCEPTED is the
#: approval (MERCHANT_STATUS_ACCEPTED carries the go-live time).
STATUS_ALIASES: dict[str, OnboardingStatus] = {
    "UNDER_REVIEW": OnboardingStatus.PENDING_REVIEW,
    "VERIFICATION_COMPLETE": OnboardingStatus.PENDING_REVIEW,
    "ACCEPTED": OnboardingStatus.APPROVED,
}


def known_status(name: str | None) -> OnboardingStatus | None:
    """The contract's status a gateway status name stands for; None when it is unknown."""
    key = (name or "").strip().upper()
    if key in OnboardingStatus.__members__:
        return OnboardingStatus(key)
    return STATUS_ALIASES.get(key)


class EntityType(StrEnum):
    """Legal form of the sub-merchant (docs/gateway-facts.md A2)."""

    INDIVIDUAL = "INDIVIDUAL"
    PVT_LTD_COMPANY = "PVT_LTD_COMPANY"
    PUBLIC_LTD_COMPANY = "PUBLIC_LTD_COMPANY"
    PROPRIETOR = "PROPRIETOR"
    PARTNERSHIP_FIRM = "PARTNERSHIP_FIRM"
    LLP_FIRM = "LLP_FIRM"


class AccountType(StrEnum):
    """Bank account types accepted for settlement."""

    CURRENT = "CURRENT"
    SAVINGS = "SAVINGS"


class Product(StrEnum):
    """Products a sub-merchant can be configured for (docs/gateway-facts.md A5)."""

    GLOBAL_FUND_TRANSFER = "GLOBAL_FUND_TRANSFER"
    INTERNATIONAL_CARDS_AND_ALT_PAYS = "INTERNATIONAL_CARDS_AND_ALT_PAYS"
    DOMESTIC_CARDS_UPI_AND_INB = "DOMESTIC_CARDS_UPI_AND_INB"


class FeeType(StrEnum):
    """How a product fee is expressed."""

    FIXED = "FIXED"
    PERCENTAGE = "PERCENTAGE"


class CardNetwork(StrEnum):
    """Card networks that need a fee under INTERNATIONAL_CARDS_AND_ALT_PAYS."""

    AMERICAN_EXPRESS = "AMERICAN_EXPRESS"
    DINERS = "DINERS"
    DISCOVER = "DISCOVER"
    OTHER_DEBIT_CARDS = "OTHER_DEBIT_CARDS"
    OTHER_CREDIT_CARDS = "OTHER_CREDIT_CARDS"


class PennyDropStatus(StrEnum):
    """Outcome of the automatic penny-drop check on bank details."""

    VERIFIED = "VERIFIED"
    FAILED = "FAILED"


#: Document types the gateway knows (the openapi enum plus the types its pages ask for).
DOCUMENT_TYPES = [
    "IEC",
    "LOB_DOCUMENT",
    "MOA_DOCUMENT",
    "AOA_DOCUMENT",
    "COI_DOCUMENT",
    "OPERATING_ADDRESS_PROOF",
    "LLP_AGREEMENT",
    "PARTNERSHIP_DEED",
    "UDYAM",
    "PAN",
    "BUSINESS",
    "ADDRESS",
    "ACCOUNT",
    "AUTH_SIGNATORY",
    "BO",
    "DIRECTOR",
    "MOA",
    "AOA",
    "COI",
    "BR",
    "LLP",
    "CANCELLED_CHEQUE",
    "REPRESENTATIVE_DOC",
    "PARTNERSHIP_REGISTRATION_CERTIFICATE",
    "UTILITY_BILL",
    "ITR",
    "SHOP_ESTABLISHMENT_CERTIFICATE",
    "GST_SUPPORTING_CERTIFICATE",
    "SERVICE_LEVEL_AGREEMENT",
    "BANK_STATEMENT",
    "PAN_CARD",
    "CERTIFICATE_OF_INCORPORATION",
]
#: A beneficial owner's Aadhaar, named after the owner: ``{PAN}_{NAME}_AADHAR``.
AADHAR_DOC_PATTERN = re.compile(r"^[A-Z]{5}[0-9]{4}[A-Z]_[A-Z0-9_]+_AADHAR$")
#: The business proofs a sole proprietor may upload for SOLE_PROP_DOC_1/2_UPLOAD.
SOLE_PROP_DOCS = [
    "UDYAM",
    "UTILITY_BILL",
    "ITR",
    "SHOP_ESTABLISHMENT_CERTIFICATE",
    "IEC",
    "GST_SUPPORTING_CERTIFICATE",
]
#: Largest decoded document the gateway accepts in one call.
MAX_DOCUMENT_BYTES = 10 * 1024 * 1024


#: The form of any document type: the gateway asks for types beyond its list (GST_CERTIFICATE
#: in rfi-handling), and the upload takes any type it asked for.
DOCUMENT_TYPE_FORM = re.compile(r"[A-Z][A-Z0-9_]{1,63}")


def known_document_type(value: str) -> bool:
    """Whether ``value`` is a type of the gateway's list or an owner's Aadhaar."""
    return value in DOCUMENT_TYPES or bool(AADHAR_DOC_PATTERN.fullmatch(value))


def _check_doc_type(value: str) -> str:
    if known_document_type(value) or DOCUMENT_TYPE_FORM.fullmatch(value):
        return value
    raise ValueError("Not a document type")


def _check_base64(value: str) -> str:
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ValueError("documentContent must be standard Base64") from exc
    if not raw:
        raise ValueError("The document is empty")
    if len(raw) > MAX_DOCUMENT_BYTES:
        raise ValueError(f"The document is larger than {MAX_DOCUMENT_BYTES // (1024 * 1024)} MB")
    return value


ExternalId = Annotated[
    str,
    AfterValidator(
        rules.check_pattern(rules.EXTERNAL_ID_PATTERN, rules.EXTERNAL_ID_MESSAGE)
    ),
]
PinCode = Annotated[
    str, AfterValidator(rules.check_pattern(rules.PIN_CODE_PATTERN, rules.PIN_CODE_MESSAGE))
]
StateCode = Annotated[str, Field(pattern=rules.STATE_CODE_PATTERN,
                                 description="Two capital letters")]
CategoryCode = Annotated[str, Field(pattern=rules.CATEGORY_CODE_PATTERN, max_length=64)]
WholeAmount = Annotated[str, Field(pattern=rules.WHOLE_AMOUNT_PATTERN, description="Whole number")]
AccountNumber = Annotated[
    str,
    AfterValidator(
        rules.check_pattern(rules.ACCOUNT_NUMBER_PATTERN, rules.ACCOUNT_NUMBER_MESSAGE)
    ),
]


def _as_number(value: Decimal) -> int | float:
    """JSON numbers for decimals: whole values stay integers."""
    return int(value) if value == value.to_integral_value() else float(value)


_NUMBER = PlainSerializer(_as_number, return_type=int | float, when_used="json")
Percentage = Annotated[Decimal, Field(ge=10, le=100, max_digits=5, decimal_places=2), _NUMBER]
Fee = Annotated[Decimal, Field(ge=0, max_digits=12, decimal_places=2), _NUMBER]


# ---------------------------------------------------------------- requests


class CreateOnboardingRequest(RequestModel):
    """Step 1: create the record."""

    externalOnboardingId: ExternalId
    panNumber: Pan


class Address(RequestModel):
    """A registered or operating address."""

    streetAddress1: NonEmpty
    streetAddress2: NonEmpty
    zipcode: PinCode
    stateCode: StateCode
    city: NonEmpty
    state: NonEmpty


class MonthlyVolume(RequestModel):
    """Expected monthly processing volume."""

    amount: WholeAmount
    currency: Literal["USD"]


#: The request field that holds the addresses, and the operating address inside it.
ADDRESS_FIELD = "address"
OPERATING_ADDRESS_FIELD = "businessOperatingAddress"


class BusinessAddresses(RequestModel):
    """The business's addresses, nested under ``address`` in the request
    (docs/gateway-facts.md A2, C)."""

    isOperatingSameAsRegistered: bool
    businessRegisteredAddress: Address
    businessOperatingAddress: Address | None = None

    def cross_field_errors(self) -> list[FieldError]:
        """The operating address is required exactly when it differs from the registered one."""
        if not self.isOperatingSameAsRegistered and self.businessOperatingAddress is None:
            return [FieldError(OPERATING_ADDRESS_FIELD,
                               "Required when the operating address differs")]
        if self.isOperatingSameAsRegistered and self.businessOperatingAddress is not None:
            return [FieldError(OPERATING_ADDRESS_FIELD,
                               "Leave empty when the operating address is the registered one")]
        return []

    @property
    def operating_differs(self) -> bool:
        """Whether the business operates away from its registered address."""
        return not self.isOperatingSameAsRegistered


class BusinessDetailsRequest(RequestModel):
    """Step 2: business details (docs/gateway-facts.md A2; revision 2 nests the addresses)."""

    entityType: EntityType
    natureOfBusiness: CategoryCode
    registeredName: NonEmpty | None = None
    tradeName: NonEmpty | None = None
    gstNumber: Gstin | None = None
    iec: Annotated[str, Field(pattern=rules.IEC_PATTERN)] | None = None
    websiteUrl: HttpUrl
    purposeCode: Annotated[str, Field(pattern=rules.PURPOSE_CODE_PATTERN)]
    expectedMonthlyVolume: MonthlyVolume
    address: BusinessAddresses
    noPartnershipRegistrationCheck: bool | None = None

    def cross_field_errors(self) -> list[FieldError]:
        """The addresses' rule, with its path under ``address``."""
        return [FieldError(f"{ADDRESS_FIELD}.{e.field}", e.message)
                for e in self.address.cross_field_errors()]

    @property
    def business_name(self) -> str:
        """The name the business goes by: its registered name, else its trade name."""
        return self.registeredName or self.tradeName or ""



class BeneficialOwner(RequestModel):
    """One beneficial owner; owners are always sent together as an array."""

    designation: NonEmpty | None = None
    name: NonEmpty
    pan: IndividualPan
    percentageOwnership: Percentage


class BeneficialOwnersRequest(RootModel[list[BeneficialOwner]]):
    """Step 3: the whole list of owners; it replaces what the gateway had."""

    root: Annotated[list[BeneficialOwner], Field(min_length=1, max_length=20)]

    def cross_field_errors(self) -> list[FieldError]:
        """The owners' total and duplicate PANs."""
        return owners_total_errors(self.root)


#: Field path of the error on the owners' total (no single owner is at fault).
OWNERSHIP_TOTAL_FIELD = "percentageOwnership"


def owners_total_errors(owners: list[BeneficialOwner]) -> list[FieldError]:
    """The sum of the owners' percentages may not pass 100; each PAN appears once."""
    errors = []
    total = sum((o.percentageOwnership for o in owners), Decimal(0))
    if total > 100:
        errors.append(
            FieldError(
                OWNERSHIP_TOTAL_FIELD, f"The owners' percentages add up to {total}; at most 100"
            )
        )
    seen: set[str] = set()
    for index, owner in enumerate(owners):
        if owner.pan in seen:
            errors.append(FieldError(f"[{index}].pan", "This PAN is already listed"))
        seen.add(owner.pan)
    return errors


class BankDetailsRequest(RequestModel):
    """Step 4: settlement bank account; penny drop runs on every call."""

    bankAccountNumber: AccountNumber
    bankIfscCode: Ifsc
    accountHolderName: NonEmpty | None = None
    accountType: AccountType


class Contact(RequestModel):
    """The signatory's contact, used for video KYC, DigiLocker and T&C."""

    phone: Phone
    email: Email


class AuthSignatoryRequest(RequestModel):
    """Step 5: the authorised signatory (spec 2.4)."""

    authSignatoryName: NonEmpty
    authSignatoryPan: IndividualPan
    contact: Contact


class DocumentUploadRequest(RequestModel):
    """Step 6: one document per call, as Base64 content or a public URL."""

    merchantDocType: Annotated[str, AfterValidator(_check_doc_type)]
    fileName: Annotated[str, Field(min_length=1, max_length=255)]
    documentContent: Annotated[str, AfterValidator(_check_base64)] | None = None
    url: HttpUrl | None = None

    def cross_field_errors(self) -> list[FieldError]:
        """Exactly one of documentContent and url."""
        if (self.documentContent is None) == (self.url is None):
            return [FieldError("documentContent", "Send either documentContent or url")]
        return []


#: The field of ``DocumentUploadRequest`` that carries a document's Base64: the client writes
#: it a chunk at a time and the sandbox reads it so, both by this name.
DOCUMENT_CONTENT = "documentContent"


class FixedOrPercentageFee(RequestModel):
    """GLOBAL_FUND_TRANSFER's fee."""

    feeType: FeeType
    fee: Fee


class NetworkFee(RequestModel):
    """One card network's fee under INTERNATIONAL_CARDS_AND_ALT_PAYS."""

    cardNetwork: CardNetwork
    feeType: FeeType
    fee: Fee


class DomesticFee(RequestModel):
    """DOMESTIC_CARDS_UPI_AND_INB's fee rate (two decimals at most)."""

    feeType: FeeType
    feeRate: Fee


class ProductFees(RequestModel):
    """Fees keyed by product."""

    GLOBAL_FUND_TRANSFER: FixedOrPercentageFee | None = None
    INTERNATIONAL_CARDS_AND_ALT_PAYS: list[NetworkFee] | None = None
    DOMESTIC_CARDS_UPI_AND_INB: DomesticFee | None = None


class ConfigureProductsRequest(RequestModel):
    """Step 7: products and their fees."""

    products: Annotated[list[Product], Field(min_length=1, max_length=3)]
    productFees: ProductFees

    @field_validator("products")
    @classmethod
    def _unique(cls, value: list[Product]) -> list[Product]:
        if len(set(value)) != len(value):
            raise ValueError("A product is listed twice")
        return value

    def cross_field_errors(self) -> list[FieldError]:
        """Every chosen product has its fees, and no fees for products not chosen."""
        errors = []
        for product in Product:
            fees = getattr(self.productFees, product.value)
            if product in self.products and fees is None:
                errors.append(
                    FieldError(f"productFees.{product}", "Fees are required for this product")
                )
            elif product not in self.products and fees is not None:
                errors.append(FieldError(f"productFees.{product}", "This product is not selected"))
        for index, fee in enumerate(self.productFees.INTERNATIONAL_CARDS_AND_ALT_PAYS or []):
            if fee.feeType is FeeType.PERCENTAGE and fee.fee > 100:
                errors.append(
                    FieldError(
                        f"productFees.INTERNATIONAL_CARDS_AND_ALT_PAYS[{index}].fee",
                        "A percentage is at most 100",
                    )
                )
        networks = [f.cardNetwork for f in self.productFees.INTERNATIONAL_CARDS_AND_ALT_PAYS or []]
        if networks and sorted(networks) != sorted(CardNetwork):
            missing = ", ".join(sorted(set(CardNetwork) - set(networks))) or "none"
            errors.append(
                FieldError(
                    "productFees.INTERNATIONAL_CARDS_AND_ALT_PAYS",
                    f"Give each card network's fee exactly once (missing: {missing})",
                )
            )
        for name in ("GLOBAL_FUND_TRANSFER", "DOMESTIC_CARDS_UPI_AND_INB"):
            fee = getattr(self.productFees, name)
            amount = getattr(fee, "fee", None) if fee else None
            amount = amount if amount is not None else getattr(fee, "feeRate", None)
            if fee and fee.feeType is FeeType.PERCENTAGE and amount is not None and amount > 100:
                errors.append(FieldError(f"productFees.{name}", "A percentage is at most 100"))
        return errors


class VerificationRedirectRequest(RequestModel):
    """Step 8: ask for the verification link; the page posts back to callBackUrl's origin."""

    callBackUrl: HttpUrl


# ---------------------------------------------------------------- responses


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


# ---------------------------------------------------------------- webhook registration


class WebhookRegistrationRequest(RequestModel):
    """Register where the partner's onboarding events are POSTed (docs/gateway-facts.md A1, A8)."""

    webhookUrl: Annotated[HttpUrl, Field(max_length=2048)]


class Webhook(ResponseModel):
    """One registered webhook: its id at the gateway and its URL."""

    webhookId: str
    webhookUrl: str


class WebhookList(ResponseModel):
    """``data`` of the webhook list."""

    webhooks: list[Webhook] = Field(default_factory=list)


# ---------------------------------------------------------------- operations


@dataclass(frozen=True)
class Operation:
    """One onboarding operation: how it is called and what it takes and gives."""

    name: str
    method: str
    path: str
    request: Any
    response: type[ResponseModel]
    summary: str

    def url_path(self, **params: str) -> str:
        """The path with its parameters filled in (they are percent-encoded)."""
        return self.path.format(**{k: quote(v, safe="") for k, v in params.items()})


_RECORD = PREFIX + "/onboard/{onboardingId}"
#: The partner's webhooks; ``{mid}`` is the partner's own (reseller) MID.
#: docs/gateway-facts.md A1 gives the POST; the list and delete paths are the sandbox's
#: plausible siblings of it.
WEBHOOKS_PATH = "/gcc/v2/partner/{mid}/webhook"

OPERATIONS: dict[str, Operation] = {
    op.name: op
    for op in (
        Operation(
            "create_onboarding",
            "POST",
            PREFIX + "/onboard",
            CreateOnboardingRequest,
            MerchantData,
            "Create onboarding",
        ),
        Operation(
            "update_business_details",
            "PUT",
            _RECORD + "/business-details",
            BusinessDetailsRequest,
            MerchantData,
            "Update business details",
        ),
        Operation(
            "add_beneficial_owners",
            "PUT",
            _RECORD + "/beneficial-owner",
            BeneficialOwnersRequest,
            MerchantData,
            "Add beneficial owners (replaces all)",
        ),
        Operation(
            "update_bank_details",
            "PUT",
            _RECORD + "/bank-details",
            BankDetailsRequest,
            MerchantData,
            "Update bank details (runs penny drop)",
        ),
        Operation(
            "update_auth_signatory",
            "PUT",
            _RECORD + "/auth-signatory",
            AuthSignatoryRequest,
            MerchantData,
            "Update authorised signatory",
        ),
        Operation(
            "upload_document",
            "PUT",
            _RECORD + "/docs",
            DocumentUploadRequest,
            MerchantData,
            "Upload one document",
        ),
        Operation(
            "configure_products",
            "PUT",
            _RECORD + "/products",
            ConfigureProductsRequest,
            MerchantData,
            "Configure products and fees",
        ),
        Operation(
            "get_verification_redirect",
            "PUT",
            PREFIX + "/verification/{onboardingId}/redirect",
            VerificationRedirectRequest,
            RedirectData,
            "Get the verification redirect link",
        ),
        Operation(
            "get_status", "GET", _RECORD + "/status", None, MerchantData, "Get onboarding status"
        ),
        Operation(
            "get_business_categories",
            "GET",
            PREFIX + "/onboard/business-category",
            None,
            CategoriesData,
            "Get business categories",
        ),
        Operation(
            "register_webhook",
            "POST",
            WEBHOOKS_PATH,
            WebhookRegistrationRequest,
            Webhook,
            "Register a webhook for onboarding events",
        ),
        Operation("list_webhooks", "GET", WEBHOOKS_PATH, None, WebhookList,
                  "List the registered webhooks"),
        Operation("delete_webhook", "DELETE", WEBHOOKS_PATH + "/{webhookId}", None, Webhook,
                  "Delete a registered webhook"),
    )
}


def body_json(value: Any) -> Any:
    """Plain-JSON form of a request value (a list for the owners' root model)."""
    return dump(value.root if isinstance(value, RootModel) else value)
