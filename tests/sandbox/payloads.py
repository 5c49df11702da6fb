"""Valid request bodies for every onboarding step, with the sandbox's test values."""

from __future__ import annotations

import base64
import itertools
from typing import Any

from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.onboarding.vocabulary import CardNetwork

OWNER_PAN = "ABCPE1234F"
SECOND_OWNER_PAN = "BCDPK5678L"
OUTSIDER_PAN = "CDEPM2468N"
MISSING_PAN = "ABCPE9999F"
GOOD_ACCOUNT = "1234567890"
GOOD_IFSC = "SBIN0000000"
CALLBACK = "https://partner.example.com/onboarding/done"

_ids = itertools.count(1)


def create_body(pan: str = "ABCCE1234F", external_id: str | None = None) -> dict[str, Any]:
    """Create: a company PAN and a fresh externalOnboardingId."""
    return {"externalOnboardingId": external_id or f"ext-{next(_ids)}", "panNumber": pan}


def address(street: str = "12 MG Road") -> dict[str, str]:
    """A valid Indian address."""
    return {"streetAddress1": street, "streetAddress2": "Indiranagar", "zipcode": "560038",
            "stateCode": "KA", "city": "Bengaluru", "state": "Karnataka"}


def business(entity_type: str = "PVT_LTD_COMPANY", operating: dict[str, str] | None = None,
             **overrides: Any) -> dict[str, Any]:
    """Business details, the addresses nested under ``address`` (contract revision 2); the
    operating address is the registered one unless ``operating`` is given."""
    addresses: dict[str, Any] = {"isOperatingSameAsRegistered": operating is None,
                                 "businessRegisteredAddress": address()}
    if operating is not None:
        addresses["businessOperatingAddress"] = operating
    body = {
        "entityType": entity_type,
        "natureOfBusiness": "BUS.IT_SERVICES",
        "registeredName": "Acme Widgets Private Limited",
        "websiteUrl": "https://acme.example.com",
        "purposeCode": "P0802",
        "expectedMonthlyVolume": {"amount": "50000", "currency": "USD"},
        "address": addresses,
    }
    return {**body, **overrides}


def owners() -> list[dict[str, Any]]:
    """Two owners; the first is also the signatory."""
    return [
        {"designation": "DIRECTOR", "name": "Asha Rao", "pan": OWNER_PAN,
         "percentageOwnership": 60},
        {"designation": "DIRECTOR", "name": "Vikram Mehta", "pan": SECOND_OWNER_PAN,
         "percentageOwnership": 40},
    ]


def bank(account: str = GOOD_ACCOUNT, ifsc: str = GOOD_IFSC) -> dict[str, str]:
    """Bank details; the defaults pass the penny drop."""
    return {"bankAccountNumber": account, "bankIfscCode": ifsc,
            "accountHolderName": "Acme Widgets Pvt Ltd", "accountType": "CURRENT"}


def signatory(pan: str = OWNER_PAN, name: str = "Asha Rao") -> dict[str, Any]:
    """The authorised signatory (by default the first owner)."""
    return {"authSignatoryName": name, "authSignatoryPan": pan,
            "contact": {"phone": "+919876543210", "email": "asha@acme.example.com"}}


def document(doc_type: str) -> dict[str, str]:
    """One small document as Base64 content."""
    content = base64.b64encode(b"%PDF-1.4 sandbox test document").decode("ascii")
    return {"merchantDocType": doc_type, "fileName": f"{doc_type.lower()}.pdf",
            "documentContent": content}


def products() -> dict[str, Any]:
    """Two products with their fees."""
    return {
        "products": ["INTERNATIONAL_CARDS_AND_ALT_PAYS", "DOMESTIC_CARDS_UPI_AND_INB"],
        "productFees": {
            "INTERNATIONAL_CARDS_AND_ALT_PAYS": [
                {"cardNetwork": network.value, "feeType": "PERCENTAGE", "fee": 2.5}
                for network in CardNetwork
            ],
            "DOMESTIC_CARDS_UPI_AND_INB": {"feeType": "PERCENTAGE", "feeRate": 1.75},
        },
    }


#: A valid body for each operation that takes one.
BODIES: dict[str, Any] = {
    "update_business_details": business(),
    "add_beneficial_owners": owners(),
    "update_bank_details": bank(),
    "update_auth_signatory": signatory(),
    "upload_document": document("PAN"),
    "configure_products": products(),
    "get_verification_redirect": {"callBackUrl": CALLBACK},
}


def fill_every_step(client: OnboardingClient, onboarding_id: str) -> None:
    """Submit every section and every outstanding document: the record is then ready."""
    client.update_business_details(onboarding_id, business())
    client.add_beneficial_owners(onboarding_id, owners())
    client.update_bank_details(onboarding_id, bank())
    client.update_auth_signatory(onboarding_id, signatory())
    outstanding = client.get_status(onboarding_id).merchantOnboardingCheckListStatus
    for doc_type in outstanding.documentsToBeUploaded:
        client.upload_document(onboarding_id, document(doc_type))
    client.configure_products(onboarding_id, products())
