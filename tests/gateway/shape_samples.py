"""Valid request bodies of the onboarding API and how a shape's errors are read back: what the
shape tests build on."""

from __future__ import annotations

import base64
from typing import Any

from portal.gateway.shapes import validate_payload

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
