"""Identifier and format rules shared by the gateway's shapes, the sandbox and the wizard.

Each check returns the normalised value or raises ``ValueError`` with a message fit to show
next to the field.
"""

from __future__ import annotations

import re

import phonenumbers
from email_validator import EmailNotValidError, validate_email
from stdnum.exceptions import ValidationError as StdnumError
from stdnum.in_ import gstin as stdnum_gstin
from stdnum.in_ import pan as stdnum_pan

#: PAN holder types the gateway accepts: Individual, Company, Trust, Firm (4th letter).
PAN_HOLDER_TYPES = frozenset("PCTF")
IFSC_PATTERN = re.compile(r"^[A-Z]{4}0[A-Z0-9]{6}$")
EXTERNAL_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
PIN_CODE_PATTERN = re.compile(r"^[1-9][0-9]{5}$")
ACCOUNT_NUMBER_PATTERN = re.compile(r"^[0-9]{9,18}$")
#: Patterns the shapes state as ``Field(pattern=...)`` (so they show in the API schema).
STATE_CODE_PATTERN = r"^[A-Z]{2}$"
CATEGORY_CODE_PATTERN = r"^[A-Z]+\.[A-Z0-9_]+$"
WHOLE_AMOUNT_PATTERN = r"^[1-9][0-9]{0,14}$"
IEC_PATTERN = r"^[A-Z0-9]{10}$"
PURPOSE_CODE_PATTERN = r"^P[0-9]{4}$"

PAN_EXAMPLE = "ABCPE1234F"
GSTIN_EXAMPLE = "27AAPFU0939F1ZV"
IFSC_EXAMPLE = "SBIN0000000"
PHONE_EXAMPLE = "+919876543210"

#: What each rule expects, in words, shown beside the field by the wizard and the bulk import.
EXTERNAL_ID_MESSAGE = "Use 1 to 64 letters, digits, '_' or '-'"
PIN_CODE_MESSAGE = "A PIN code is 6 digits and does not start with 0, e.g. 400001"
ACCOUNT_NUMBER_MESSAGE = "An account number has 9 to 18 digits, nothing else"
URL_MESSAGE = "Enter the full web address, starting with https://, e.g. https://merchant.example"
PATTERN_MESSAGES = {
    STATE_CODE_PATTERN: "Two capital letters, e.g. MH",
    CATEGORY_CODE_PATTERN: "Choose the nature of business from the list",
    WHOLE_AMOUNT_PATTERN: "A whole number without separators or decimals, not starting with "
                          "0, e.g. 50000",
    IEC_PATTERN: "10 capital letters or digits, e.g. 0123456789",
    PURPOSE_CODE_PATTERN: "P followed by four digits, e.g. P0802",
}


def check_pan(value: str, holder_types: frozenset[str] = PAN_HOLDER_TYPES) -> str:
    """Validate a PAN's format and that its 4th letter is one of ``holder_types``."""
    value = value.strip().upper()
    try:
        stdnum_pan.validate(value)
    except StdnumError as exc:
        raise ValueError(f"Not a valid PAN (format AAAPA9999A, e.g. {PAN_EXAMPLE})") from exc
    if value[3] not in holder_types:
        allowed = ", ".join(sorted(holder_types))
        raise ValueError(f"PAN holder type (4th letter) must be one of {allowed}, not {value[3]}")
    return value


def check_individual_pan(value: str) -> str:
    """Validate a PAN that must belong to a person (4th letter P)."""
    return check_pan(value, frozenset("P"))


def check_gstin(value: str) -> str:
    """Validate a GSTIN including its check digit."""
    value = value.strip().upper()
    try:
        return stdnum_gstin.validate(value)
    except StdnumError as exc:
        raise ValueError(
            f"Not a valid GSTIN (15 characters with a check digit, e.g. {GSTIN_EXAMPLE})"
        ) from exc


def check_ifsc(value: str) -> str:
    """Validate an IFSC: four letters, a zero, six letters or digits."""
    value = value.strip().upper()
    if not IFSC_PATTERN.fullmatch(value):
        raise ValueError(f"Not a valid IFSC (11 characters, 5th is 0, e.g. {IFSC_EXAMPLE})")
    return value


def check_email(value: str) -> str:
    """Validate an email address's syntax (no DNS look-up) and return its normalised form."""
    try:
        return validate_email(value, check_deliverability=False).normalized
    except EmailNotValidError as exc:
        raise ValueError("Not a valid email address: a name, an @ and a domain, e.g. "
                         "owner@merchant.example") from exc


def check_phone(value: str) -> str:
    """Validate a phone number in international format and return it as E.164."""
    try:
        number = phonenumbers.parse(value, None)
    except phonenumbers.NumberParseException as exc:
        raise ValueError(
            f"Phone must be in international format with its calling code, e.g. {PHONE_EXAMPLE}"
        ) from exc
    if not phonenumbers.is_valid_number(number):
        raise ValueError(f"Not a valid phone number for its calling code, e.g. {PHONE_EXAMPLE}")
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def check_calling_code(value: str) -> str:
    """Validate a country calling code written with its +, e.g. +91."""
    digits = value.strip().removeprefix("+")
    if not value.strip().startswith("+") or not digits.isdigit() or len(digits) > 3 \
            or phonenumbers.region_code_for_country_code(int(digits)) == "ZZ":
        raise ValueError("A country calling code with its +, e.g. +91")
    return "+" + digits


def check_national_phone(value: str) -> str:
    """Validate a phone number without its calling code: 4 to 14 digits."""
    digits = value.strip()
    if not (digits.isdigit() and 4 <= len(digits) <= 14):
        raise ValueError("The phone number without the calling code: 4 to 14 digits, e.g. "
                         "9876543210")
    return digits


def check_pattern(pattern: re.Pattern[str], message: str):
    """Build a check that a value matches ``pattern`` in full."""

    def check(value: str) -> str:
        if not pattern.fullmatch(value):
            raise ValueError(message)
        return value

    return check


def mask(value: str | None, keep: int = 4) -> str:
    """Mask all but the last ``keep`` characters of a PAN, account number or token."""
    if not value:
        return ""
    if len(value) <= keep:
        return "*" * len(value)
    return "*" * (len(value) - keep) + value[-keep:]
