"""Request shapes and identifier rules: what the client refuses before sending, and how."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from portal.gateway import rules
from portal.gateway.onboarding.shapes import (
    MAX_DOCUMENT_BYTES,
    AuthSignatoryRequest,
    BankDetailsRequest,
    BeneficialOwnersRequest,
    BusinessDetailsRequest,
    ConfigureProductsRequest,
    CreateOnboardingRequest,
    DocumentUploadRequest,
    MerchantInfo,
    body_json,
)
from portal.gateway.shapes import Envelope, FieldError, field_path, validate_payload
from portal.gateway.transport import json_bytes

ADDRESS = {
    "streetAddress1": "12 MG Road",
    "streetAddress2": "Fort",
    "zipcode": "400001",
    "stateCode": "MH",
    "city": "Mumbai",
    "state": "Maharashtra",
}
BUSINESS = {
    "entityType": "PARTNERSHIP_FIRM",
    "natureOfBusiness": "RETAIL.GROCERY",
    "registeredName": "Jöhn & Sons",
    "gstNumber": "27AAPFU0939F1ZV",
    "websiteUrl": "https://shop.example.com",
    "purposeCode": "P0802",
    "expectedMonthlyVolume": {"amount": "100000", "currency": "USD"},
    "address": {"isOperatingSameAsRegistered": True, "businessRegisteredAddress": ADDRESS},
}


def business_with(**addresses: object) -> dict[str, object]:
    """BUSINESS with some of the fields under ``address`` changed."""
    return {**BUSINESS, "address": {**BUSINESS["address"], **addresses}}
SIGNATORY = {
    "authSignatoryName": "Jöhn Dœ",
    "authSignatoryPan": "ABCPE1234F",
    "contact": {"phone": "+919876543210", "email": "john@example.com"},
}
NETWORK_FEES = [
    {"cardNetwork": network, "feeType": "PERCENTAGE", "fee": 2.5}
    for network in ("AMERICAN_EXPRESS", "DINERS", "DISCOVER", "OTHER_DEBIT_CARDS",
                    "OTHER_CREDIT_CARDS")
]
PRODUCTS = {
    "products": ["INTERNATIONAL_CARDS_AND_ALT_PAYS"],
    "productFees": {"INTERNATIONAL_CARDS_AND_ALT_PAYS": NETWORK_FEES},
}
DOC_CONTENT = base64.b64encode(b"%PDF-1.4 a tiny doc").decode()  # 19 bytes: ends in "="


def owner(pan: str = "ABCPE1234F", percentage: Any = 50, name: str = "Asha") -> dict[str, Any]:
    return {"designation": "Director", "name": name, "pan": pan, "percentageOwnership": percentage}


def paths(shape: Any, payload: Any) -> list[str]:
    """The field paths of the errors a payload raises (empty when it is valid)."""
    value, errors = validate_payload(shape, payload)
    assert (value is None) == bool(errors)
    return [e.field for e in errors]


def messages(shape: Any, payload: Any) -> dict[str, str]:
    return {e.field: e.message for e in validate_payload(shape, payload)[1]}


# ---------------------------------------------------------------- field paths


@pytest.mark.parametrize(
    ("loc", "expected"),
    [
        ((1, "pan"), "[1].pan"),
        (("contact", "email"), "contact.email"),
        (("businessRegisteredAddress", "zipcode"), "businessRegisteredAddress.zipcode"),
        (
            ("productFees", "INTERNATIONAL_CARDS_AND_ALT_PAYS", 3, "fee"),
            "productFees.INTERNATIONAL_CARDS_AND_ALT_PAYS[3].fee",
        ),
        (("root", 0, "name"), "[0].name"),
        (("panNumber",), "panNumber"),
        ((), ""),
    ],
)
def test_field_path(loc: tuple, expected: str) -> None:
    assert field_path(loc) == expected


def test_nested_owner_error_path() -> None:
    owners = [owner(), owner(pan="ABCCE1234F", percentage=20, name="Ravi")]
    assert paths(BeneficialOwnersRequest, owners) == ["[1].pan"]


def test_nested_contact_error_path() -> None:
    body = {**SIGNATORY, "contact": {"phone": "+919876543210", "email": "not-an-email"}}
    assert paths(AuthSignatoryRequest, body) == ["contact.email"]


def test_nested_address_error_path() -> None:
    body = business_with(businessRegisteredAddress={**ADDRESS, "zipcode": "04000"})
    assert paths(BusinessDetailsRequest, body) == ["address.businessRegisteredAddress.zipcode"]


def test_flat_addresses_of_revision_1_are_refused() -> None:
    flat = {key: value for key, value in BUSINESS.items() if key != "address"}
    flat.update(BUSINESS["address"])
    assert messages(BusinessDetailsRequest, flat) == {
        "address": "This field is required",
        "isOperatingSameAsRegistered": "Unknown field",
        "businessRegisteredAddress": "Unknown field",
    }


def test_registered_name_and_account_holder_name_are_optional() -> None:
    without_name = {key: value for key, value in BUSINESS.items() if key != "registeredName"}
    assert paths(BusinessDetailsRequest, without_name) == []
    bank = {"bankAccountNumber": "1234567890", "bankIfscCode": "SBIN0000000",
            "accountType": "CURRENT"}
    assert paths(BankDetailsRequest, bank) == []


def test_product_fee_error_paths() -> None:
    missing_network = {
        "products": ["INTERNATIONAL_CARDS_AND_ALT_PAYS"],
        "productFees": {"INTERNATIONAL_CARDS_AND_ALT_PAYS": NETWORK_FEES[:4]},
    }
    assert paths(ConfigureProductsRequest, missing_network) == [
        "productFees.INTERNATIONAL_CARDS_AND_ALT_PAYS"
    ]
    assert "OTHER_CREDIT_CARDS" in messages(ConfigureProductsRequest, missing_network)[
        "productFees.INTERNATIONAL_CARDS_AND_ALT_PAYS"
    ]
    negative = [dict(f) for f in NETWORK_FEES]
    negative[3]["fee"] = -1
    assert paths(
        ConfigureProductsRequest,
        {**PRODUCTS, "productFees": {"INTERNATIONAL_CARDS_AND_ALT_PAYS": negative}},
    ) == ["productFees.INTERNATIONAL_CARDS_AND_ALT_PAYS[3].fee"]
    over = [dict(f) for f in NETWORK_FEES]
    over[1]["fee"] = 100.5
    assert paths(
        ConfigureProductsRequest,
        {**PRODUCTS, "productFees": {"INTERNATIONAL_CARDS_AND_ALT_PAYS": over}},
    ) == ["productFees.INTERNATIONAL_CARDS_AND_ALT_PAYS[1].fee"]


def test_fees_for_an_unselected_product_are_refused() -> None:
    body = {
        **PRODUCTS,
        "productFees": {
            **PRODUCTS["productFees"],
            "GLOBAL_FUND_TRANSFER": {"feeType": "FIXED", "fee": 1},
        },
    }
    assert paths(ConfigureProductsRequest, body) == ["productFees.GLOBAL_FUND_TRANSFER"]


def test_valid_shapes_have_no_errors() -> None:
    assert paths(BusinessDetailsRequest, BUSINESS) == []
    assert paths(AuthSignatoryRequest, SIGNATORY) == []
    assert paths(ConfigureProductsRequest, PRODUCTS) == []
    create = {"externalOnboardingId": "a_B-9", "panNumber": "ABCPE1234F"}
    assert paths(CreateOnboardingRequest, create) == []


def test_error_detail_reads_field_or_field_name() -> None:
    parsed = Envelope.model_validate(
        {"errorDetails": [{"field": "contact.email", "message": "a"},
                          {"fieldName": "[1].pan", "message": "b"}, {"message": "c"}]}
    )
    assert [d.path for d in parsed.errorDetails] == ["contact.email", "[1].pan", ""]
    assert FieldError("[1].pan", "b").as_json() == {"field": "[1].pan", "message": "b"}


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


# ---------------------------------------------------------------- percentages


@pytest.mark.parametrize(
    ("percentage", "ok"),
    [(10, True), (100, True), (55.55, True), ("25.5", True), (9.99, False), (0, False),
     (100.01, False), (101, False), (-10, False), (33.333, False)],
)
def test_ownership_percentage_bounds(percentage: Any, ok: bool) -> None:
    assert paths(BeneficialOwnersRequest, [owner(percentage=percentage)]) == (
        [] if ok else ["[0].percentageOwnership"]
    )


def test_ownership_sum_over_100_is_refused() -> None:
    owners = [owner(percentage=60), owner(pan="ABCPK1234F", percentage=40.01, name="Ravi")]
    errors = messages(BeneficialOwnersRequest, owners)
    assert list(errors) == ["percentageOwnership"]
    assert "100.01" in errors["percentageOwnership"]


def test_ownership_sum_of_exactly_100_is_fine() -> None:
    owners = [owner(percentage=60), owner(pan="ABCPK1234F", percentage=40, name="Ravi")]
    assert paths(BeneficialOwnersRequest, owners) == []


def test_owner_listed_twice_is_refused() -> None:
    owners = [owner(percentage=30), owner(percentage=30, name="Asha again")]
    assert paths(BeneficialOwnersRequest, owners) == ["[1].pan"]


def test_owners_list_may_not_be_empty() -> None:
    assert paths(BeneficialOwnersRequest, []) == [""]


# ---------------------------------------------------------------- unknown fields


def test_unknown_fields_are_refused() -> None:
    body = {"externalOnboardingId": "ext-1", "panNumber": "ABCPE1234F", "extra": 1}
    assert messages(CreateOnboardingRequest, body) == {"extra": "Unknown field"}
    nested = business_with(businessRegisteredAddress={**ADDRESS, "country": "IN"})
    assert messages(BusinessDetailsRequest, nested) == {
        "address.businessRegisteredAddress.country": "Unknown field"
    }
    owners = [owner(), {**owner(pan="ABCPK1234F", percentage=10), "aadhaar": "1234"}]
    assert messages(BeneficialOwnersRequest, owners) == {"[1].aadhaar": "Unknown field"}


def test_missing_fields_are_named() -> None:
    assert messages(CreateOnboardingRequest, {"panNumber": "ABCPE1234F"}) == {
        "externalOnboardingId": "This field is required"
    }


# ---------------------------------------------------------------- operating address


def test_operating_address_required_when_it_differs() -> None:
    body = business_with(isOperatingSameAsRegistered=False)
    assert paths(BusinessDetailsRequest, body) == ["address.businessOperatingAddress"]
    with_address = business_with(isOperatingSameAsRegistered=False,
                                 businessOperatingAddress={**ADDRESS, "zipcode": "560001"})
    assert paths(BusinessDetailsRequest, with_address) == []


def test_operating_address_refused_when_the_same() -> None:
    body = business_with(businessOperatingAddress=ADDRESS)
    assert paths(BusinessDetailsRequest, body) == ["address.businessOperatingAddress"]


def test_operating_address_is_validated_too() -> None:
    body = business_with(isOperatingSameAsRegistered=False,
                         businessOperatingAddress={**ADDRESS, "stateCode": "mh"})
    assert paths(BusinessDetailsRequest, body) == ["address.businessOperatingAddress.stateCode"]


# ---------------------------------------------------------------- documents


def test_document_with_content_or_url() -> None:
    assert DOC_CONTENT.endswith("=")
    base = {"merchantDocType": "PAN_CARD", "fileName": "pan.pdf"}
    assert paths(DocumentUploadRequest, {**base, "documentContent": DOC_CONTENT}) == []
    assert paths(DocumentUploadRequest, {**base, "url": "https://files.example.com/p.pdf"}) == []


def test_document_needs_exactly_one_of_content_and_url() -> None:
    base = {"merchantDocType": "PAN_CARD", "fileName": "pan.pdf"}
    both = {**base, "documentContent": DOC_CONTENT, "url": "https://files.example.com/p.pdf"}
    assert paths(DocumentUploadRequest, both) == ["documentContent"]
    assert paths(DocumentUploadRequest, base) == ["documentContent"]


@pytest.mark.parametrize(
    "content",
    [
        "not base64!",
        DOC_CONTENT.rstrip("="),  # padding missing
        base64.urlsafe_b64encode(b"\xfb\xff\xfe\xfb\xef").decode(),  # '-' and '_'
        DOC_CONTENT[:10] + "\n" + DOC_CONTENT[10:],
        "",  # empty document
    ],
)
def test_document_content_must_be_standard_base64(content: str) -> None:
    body = {"merchantDocType": "PAN_CARD", "fileName": "pan.pdf", "documentContent": content}
    assert paths(DocumentUploadRequest, body) == ["documentContent"]


def test_document_size_limit() -> None:
    big = base64.b64encode(b"\0" * (MAX_DOCUMENT_BYTES + 1)).decode()
    body = {"merchantDocType": "PAN_CARD", "fileName": "pan.pdf", "documentContent": big}
    assert "larger than 10 MB" in messages(DocumentUploadRequest, body)["documentContent"]


def test_document_type() -> None:
    base = {"fileName": "a.pdf", "documentContent": DOC_CONTENT}
    assert paths(DocumentUploadRequest, {**base, "merchantDocType": "ABCPE1234F_ASHA_AADHAR"}) == []
    # a type beyond the gateway's list is the gateway's to ask for (the sandbox refuses one
    # nobody asked for); the shape refuses what is no type at all
    assert paths(DocumentUploadRequest, {**base, "merchantDocType": "GST_CERTIFICATE"}) == []
    for word in ("selfie", "SELFIE PHOTO", "X", "A" * 65, "_PAN"):
        assert paths(DocumentUploadRequest, {**base, "merchantDocType": word}) == [
            "merchantDocType"], word


# ---------------------------------------------------------------- JSON form


def test_body_json_keeps_whole_percentages_as_ints_and_fractions_as_floats() -> None:
    owners = [
        owner(percentage=50),
        owner(pan="ABCPK1234F", percentage=33.5, name="Ravi"),
        owner(pan="ABCPL1234F", percentage="10.00", name="Lata"),
    ]
    value, errors = validate_payload(BeneficialOwnersRequest, owners)
    assert errors == []
    plain = body_json(value)
    assert isinstance(plain, list)
    shares = [o["percentageOwnership"] for o in plain]
    assert shares == [50, 33.5, 10]
    assert [type(s) for s in shares] == [int, float, int]
    wire = json_bytes(plain)
    assert b'"percentageOwnership":50}' in wire
    assert b'"percentageOwnership":33.5}' in wire
    assert b'"percentageOwnership":10}' in wire
    assert json.loads(wire) == plain


def test_body_json_of_fees_and_unset_fields() -> None:
    value, _ = validate_payload(ConfigureProductsRequest, PRODUCTS)
    plain = body_json(value)
    fees = plain["productFees"]["INTERNATIONAL_CARDS_AND_ALT_PAYS"]
    assert {type(f["fee"]) for f in fees} == {float} and fees[0]["fee"] == 2.5
    assert "GLOBAL_FUND_TRANSFER" not in plain["productFees"]  # unset fields left out
    value, _ = validate_payload(BusinessDetailsRequest, BUSINESS)
    plain = body_json(value)
    assert "tradeName" not in plain and "businessOperatingAddress" not in plain["address"]
    assert plain["registeredName"] == "Jöhn & Sons"
    assert "Jöhn".encode() in json_bytes(plain)  # UTF-8 on the wire, not \\u escapes


# ---------------------------------------------------------------- status names


@pytest.mark.parametrize(("info", "reported", "status"), [
    ({"onboardingStatus": "PENDING_REVIEW"}, "PENDING_REVIEW", "PENDING_REVIEW"),
    ({"onboardingStatus": "UNDER_REVIEW"}, "UNDER_REVIEW", "PENDING_REVIEW"),
    ({"onboardingStatus": "VERIFICATION_COMPLETE"}, "VERIFICATION_COMPLETE", "PENDING_REVIEW"),
    ({"onboardingStatus": "ACCEPTED"}, "ACCEPTED", "APPROVED"),
    ({"onboardingStatus": " approved "}, "approved", "APPROVED"),
    ({"merchantStatus": "UNDER_REVIEW"}, "UNDER_REVIEW", "PENDING_REVIEW"),
    ({"onboardingStatus": "ON_HOLD", "merchantStatus": "ACCEPTED"}, "ON_HOLD", "APPROVED"),
    ({"onboardingStatus": "ON_HOLD"}, "ON_HOLD", None),
    ({}, "", None),
])
def test_status_names_of_the_gateways_pages_map_onto_the_contract(info, reported, status):
    parsed = MerchantInfo.model_validate({"onboardingId": "pg_onboard_1", **info})
    assert parsed.reported_status == reported
    assert parsed.status == status
