"""The onboarding API's vocabulary: its statuses (and the names other pages give them), entity
types, products, fees, document types, and the field types its requests are checked with."""

from __future__ import annotations

import base64
import binascii
import re
from decimal import Decimal
from enum import StrEnum
from typing import Annotated

from pydantic import AfterValidator, Field, PlainSerializer

from portal.gateway import rules


class OnboardingStatus(StrEnum):
    """The onboarding record's status (spec section 3)."""

    INITIATED = "INITIATED"
    IN_PROGRESS = "IN_PROGRESS"
    PENDING_VERIFICATION = "PENDING_VERIFICATION"
    PENDING_REVIEW = "PENDING_REVIEW"
    APPROVED = "APPROVED"
    REJECTED = "REJECTED"
    RFI = "RFI"



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


def check_doc_type(value: str) -> str:
    """A document type of the gateway's list, an owner's Aadhaar, or a word of the type's form."""
    if known_document_type(value) or DOCUMENT_TYPE_FORM.fullmatch(value):
        return value
    raise ValueError("Not a document type")


def check_base64(value: str) -> str:
    """Standard Base64 of a document that is not empty and not too large."""
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
