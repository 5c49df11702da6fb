"""The onboarding API's request bodies, defined once: the client builds them, the sandbox and the
wizard validate with them (docs/gateway-contract.md, "Partner onboarding")."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, HttpUrl, RootModel, field_validator

from portal.gateway import rules
from portal.gateway.onboarding.vocabulary import (
    AccountNumber,
    AccountType,
    CardNetwork,
    CategoryCode,
    EntityType,
    ExternalId,
    Fee,
    FeeType,
    Percentage,
    PinCode,
    Product,
    StateCode,
    WholeAmount,
    check_base64,
    check_doc_type,
)
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
)


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

    merchantDocType: Annotated[str, AfterValidator(check_doc_type)]
    fileName: Annotated[str, Field(min_length=1, max_length=255)]
    documentContent: Annotated[str, AfterValidator(check_base64)] | None = None
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
