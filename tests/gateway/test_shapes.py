"""Request shapes and identifier rules: what the client refuses before sending, and how."""

from __future__ import annotations

import json
from typing import Any

import pytest

from portal.gateway.onboarding.answers import MerchantInfo
from portal.gateway.onboarding.operations import body_json
from portal.gateway.onboarding.requests import (
    AuthSignatoryRequest,
    BankDetailsRequest,
    BeneficialOwnersRequest,
    BusinessDetailsRequest,
    ConfigureProductsRequest,
    CreateOnboardingRequest,
)
from portal.gateway.shapes import Envelope, FieldError, field_path, validate_payload
from portal.gateway.transport import json_bytes
from tests.gateway.shape_samples import (
    ADDRESS,
    BUSINESS,
    NETWORK_FEES,
    PRODUCTS,
    SIGNATORY,
    business_with,
    messages,
    owner,
    paths,
)

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
