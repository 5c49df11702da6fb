"""Identifier rules: PANs, GSTINs, IFSCs, emails, phones, external ids, as the shapes check
them before anything is sent."""

from __future__ import annotations

import pytest

from portal.gateway import rules
from portal.gateway.onboarding.operations import body_json
from portal.gateway.onboarding.requests import (
    AuthSignatoryRequest,
    BeneficialOwnersRequest,
    BusinessDetailsRequest,
    CreateOnboardingRequest,
)
from portal.gateway.shapes import validate_payload
from tests.gateway.shape_samples import (
    BUSINESS,
    SIGNATORY,
    owner,
    paths,
)

# ---------------------------------------------------------------- identifier rules


@pytest.mark.parametrize(
    ("value", "expected"),
    [("ABCPE1234F", "ABCPE1234F"), (" abcpe1234f ", "ABCPE1234F"), ("AAACT1234C", "AAACT1234C"),
     ("AAATZ1234C", "AAATZ1234C"), ("AAAFZ1234C", "AAAFZ1234C")],
)
def test_pan_accepted(value: str, expected: str) -> None:
    assert rules.check_pan(value) == expected


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("ABCPE1234", "Not a valid PAN"),  # too short
        ("ABCPE12345", "Not a valid PAN"),  # digit as check letter
        ("AB1PE1234F", "Not a valid PAN"),
        ("ABCPE0000F", "Not a valid PAN"),  # serial 0000
        ("ABCXE1234F", "Not a valid PAN"),  # X is no holder type at all
        ("ABCHE1234F", "4th letter"),  # HUF: a real type the gateway does not take
        ("ABCGE1234F", "4th letter"),
    ],
)
def test_pan_refused(value: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rules.check_pan(value)


@pytest.mark.parametrize("value", ["ABCCE1234F", "ABCFE1234F", "ABCTE1234F"])
def test_owner_pan_must_be_an_individual(value: str) -> None:
    assert rules.check_pan(value) == value
    with pytest.raises(ValueError, match="must be one of P"):
        rules.check_individual_pan(value)
    assert paths(BeneficialOwnersRequest, [owner(pan=value)]) == ["[0].pan"]
    assert paths(AuthSignatoryRequest, {**SIGNATORY, "authSignatoryPan": value}) == [
        "authSignatoryPan"
    ]


def test_create_takes_a_company_pan() -> None:
    body = {"externalOnboardingId": "ext-1", "panNumber": "AAACT1234C"}
    assert paths(CreateOnboardingRequest, body) == []
    assert paths(CreateOnboardingRequest, {**body, "panNumber": "AAAHT1234C"}) == ["panNumber"]


def test_gstin_checksum() -> None:
    assert rules.check_gstin("27AAPFU0939F1ZV") == "27AAPFU0939F1ZV"
    assert rules.check_gstin(" 27aapfu0939f1zv ") == "27AAPFU0939F1ZV"
    for bad in ("27AAPFU0939F1ZW", "27AAPFU0939F1Z", "99AAPFU0939F1ZV", ""):
        with pytest.raises(ValueError, match="GSTIN"):
            rules.check_gstin(bad)
    assert paths(BusinessDetailsRequest, {**BUSINESS, "gstNumber": "27AAPFU0939F1ZW"}) == [
        "gstNumber"
    ]


@pytest.mark.parametrize("value", ["SBIN0000000", "HDFC0ABC123", "sbin0001234"])
def test_ifsc_accepted(value: str) -> None:
    assert rules.check_ifsc(value) == value.upper()


@pytest.mark.parametrize("value", ["SBIN1000000", "SBI00000000", "SBIN000000", "SBIN00000000",
                                   "SBIN0-00000", ""])
def test_ifsc_refused(value: str) -> None:
    with pytest.raises(ValueError, match="IFSC"):
        rules.check_ifsc(value)


def test_email() -> None:
    assert rules.check_email("john.doe@example.com") == "john.doe@example.com"
    assert rules.check_email("John@EXAMPLE.com") == "John@example.com"  # domain normalised
    for bad in ("john", "john@", "@example.com", "jo hn@example.com", "john@@example.com"):
        with pytest.raises(ValueError, match="email"):
            rules.check_email(bad)


def test_phone_must_be_international() -> None:
    assert rules.check_phone("+919876543210") == "+919876543210"
    assert rules.check_phone("+91 98765 43210") == "+919876543210"
    assert rules.check_phone("+1 650 253 0000") == "+16502530000"
    with pytest.raises(ValueError, match="international format"):
        rules.check_phone("9876543210")  # no calling code
    with pytest.raises(ValueError, match="Not a valid phone"):
        rules.check_phone("+91123")
    assert paths(
        AuthSignatoryRequest,
        {**SIGNATORY, "contact": {**SIGNATORY["contact"], "phone": "09876543210"}},
    ) == ["contact.phone"]


def test_signatory_contact_is_normalised() -> None:
    value, _ = validate_payload(
        AuthSignatoryRequest,
        {**SIGNATORY, "contact": {"phone": "+91 98765-43210", "email": "john@EXAMPLE.com"}},
    )
    assert body_json(value)["contact"] == {"phone": "+919876543210", "email": "john@example.com"}


def test_external_onboarding_id() -> None:
    ok = {"externalOnboardingId": "a" * 64, "panNumber": "ABCPE1234F"}
    assert paths(CreateOnboardingRequest, ok) == []
    for bad in ("a" * 65, "", "has space", "slash/", "ümlaut"):
        assert paths(CreateOnboardingRequest, {**ok, "externalOnboardingId": bad}) == [
            "externalOnboardingId"
        ]


def test_mask_keeps_only_the_tail() -> None:
    assert rules.mask("ABCPE1234F") == "******234F"
    assert rules.mask("123") == "***"
    assert rules.mask(None) == ""


