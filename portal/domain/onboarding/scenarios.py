"""Sandbox test data for every step, per scenario (docs/gateway-contract.md, "Sandbox test
values": the bank account that passes the penny drop, the names that end a review).

Only offered when the portal talks to the sandbox. The data is form-shaped: what a person
would type, stored as the step's draft and sent with the normal buttons.
"""

from __future__ import annotations

import secrets
import string
from typing import Any

from stdnum import luhn
from stdnum.in_ import pan as stdnum_pan

from portal.domain.onboarding.create import new_external_id
from portal.gateway.onboarding.vocabulary import CardNetwork, Product
from portal.gateway.rules import PHONE_EXAMPLE

HAPPY = "happy"
PENNY_DROP_FAILS = "penny_drop_fails"
REVIEW_RFI = "review_rfi"
REVIEW_REJECTED = "review_rejected"
DIGILOCKER_OUTSIDE = "digilocker_outside"
EVERY_PRODUCT = "every_product"
CARDS_BLOCKED = "cards_blocked"
INDIVIDUAL = "individual"
REVIEW_RFI_GST = "review_rfi_gst"

LABELS = {
    HAPPY: "Happy path (approved)",
    PENNY_DROP_FAILS: "Penny drop fails (cancelled cheque needed)",
    REVIEW_RFI: "Review asks for more information",
    REVIEW_REJECTED: "Review ends in a rejection",
    DIGILOCKER_OUTSIDE: "Verification page as the gateway's iframe docs show it "
                        "(DigiLocker outside the frame)",
    EVERY_PRODUCT: "Every product (in the docs dialect MCA is accepted first, cards a step later)",
    CARDS_BLOCKED: "Approved, but cards held up by a pendency",
    INDIVIDUAL: "An individual (no beneficial owners)",
    REVIEW_RFI_GST: "Review asks for a GST certificate (a type outside the spec's list)",
}
CHOICES = list(LABELS.items())

#: The account and IFSC the sandbox's penny drop verifies; any other pair fails.
VERIFIED_BANK = ("1234567890", "SBIN0000000")
FAILING_BANK = ("9876543210", "HDFC0000001")
#: The sandbox decides the review by words in registeredName (REJECT, RFI, with GST the
#: document it asks for, CARDSBLOCKED), and the verification page's dialect by REDIRECT.
_NAMES = {
    HAPPY: "Sandbox Traders Private Limited",
    PENNY_DROP_FAILS: "Sandbox Traders Private Limited",
    REVIEW_RFI: "RFI Sandbox Traders Private Limited",
    REVIEW_REJECTED: "REJECT Sandbox Traders Private Limited",
    DIGILOCKER_OUTSIDE: "REDIRECT Sandbox Traders Private Limited",
    EVERY_PRODUCT: "Sandbox Traders Private Limited",
    CARDS_BLOCKED: "CARDSBLOCKED Sandbox Traders Private Limited",
    INDIVIDUAL: "Asha Rao",
    REVIEW_RFI_GST: "RFI GST Sandbox Traders Private Limited",
}
#: The scenarios that ask for the global fund transfer too (the others: the card products).
_EVERY_PRODUCT = (EVERY_PRODUCT, CARDS_BLOCKED)
#: Individual PANs (4th letter P) of the two owners; the first is also the signatory.
OWNERS = (("Director", "Asha Rao", "ABCPR1234K", "60"),
          ("Director", "Vikram Mehta", "BCDPM5678L", "40"))
#: An individual owns its business whole: itself, the signatory.
INDIVIDUAL_OWNER = (("Owner", OWNERS[0][1], OWNERS[0][2], "100"),)
_ADDRESS = {"streetAddress1": "12 Marine Drive", "streetAddress2": "Nariman Point",
            "zipcode": "400021", "city": "Mumbai", "state": "Maharashtra", "stateCode": "MH"}


def company_pan(holder: str = "C") -> str:
    """A fresh, well-formed PAN of a company (4th letter C; ``holder`` "P": an individual's):
    its serial number is 0001 to 9998 (0000 is no PAN's, and the sandbox's registry has no PAN
    numbered 9999)."""
    letters = "".join(secrets.choice(string.ascii_uppercase) for _ in range(3))
    digits = f"{1 + secrets.randbelow(9998):04d}"
    return f"{letters}{holder}{secrets.choice(string.ascii_uppercase)}{digits}" \
           f"{secrets.choice(string.ascii_uppercase)}"


def gstin_of(pan: str, state: str = "27") -> str:
    """The first GSTIN of the business with this PAN in ``state`` (27, Maharashtra: the test
    address's), its check digit computed; blank when the PAN is not a well-formed one."""
    if not stdnum_pan.is_valid(pan):
        return ""
    start = f"{state}{pan.upper()}1Z"
    return start + luhn.calc_check_digit(start, string.digits + string.ascii_uppercase)


def form_data(scenario: str, step: str, pan: str = "") -> dict[str, Any]:
    """The form data of ``step`` for ``scenario``; the business details' GSTIN is that of the
    merchant's ``pan`` (none without it: a GSTIN of another PAN fails the checks before
    sending)."""
    name = _NAMES[scenario]
    account, ifsc = FAILING_BANK if scenario == PENNY_DROP_FAILS else VERIFIED_BANK
    individual = scenario == INDIVIDUAL
    builders = {
        "create": lambda: {"displayName": f"{name} ({LABELS[scenario]})",
                           "externalOnboardingId": new_external_id(),
                           "panNumber": company_pan("P" if individual else "C")},
        "business": lambda: {
            "entityType": "INDIVIDUAL" if individual else "PVT_LTD_COMPANY",
            "natureOfBusiness": "BUS.IT_SERVICES",
            "registeredName": name, "tradeName": "Sandbox Traders",
            "gstNumber": gstin_of(pan), "iec": "", "websiteUrl": "https://merchant.example.com",
            "purposeCode": "P0802",
            "expectedMonthlyVolume": {"amount": "50000", "currency": "USD"},
            "address": {"isOperatingSameAsRegistered": True,
                        "businessRegisteredAddress": dict(_ADDRESS),
                        "businessOperatingAddress": {}},
            "noPartnershipRegistrationCheck": False},
        "owners": lambda: {"owners": [  # the gateway needs none of an individual (not sent)
            {"designation": d, "name": n, "pan": p, "percentageOwnership": pct}
            for d, n, p, pct in (INDIVIDUAL_OWNER if individual else OWNERS)]},
        "bank": lambda: {"bankAccountNumber": account, "bankIfscCode": ifsc,
                         "accountHolderName": name, "accountType": "CURRENT"},
        "signatory": lambda: {"authSignatoryName": OWNERS[0][1],
                              "authSignatoryPan": OWNERS[0][2],
                              "contact": {"phone": PHONE_EXAMPLE,
                                          "email": "asha.rao@merchant.example.com"}},
        "products": lambda: {
            "products": [product.value for product in Product
                         if scenario in _EVERY_PRODUCT or product != Product.GLOBAL_FUND_TRANSFER],
            "productFees": {
                "GLOBAL_FUND_TRANSFER": {"feeType": "FIXED", "fee": "25"}
                if scenario in _EVERY_PRODUCT else {"feeType": "", "fee": ""},
                "INTERNATIONAL_CARDS_AND_ALT_PAYS": [
                    {"cardNetwork": n.value, "feeType": "PERCENTAGE", "fee": "2.5"}
                    for n in CardNetwork],
                "DOMESTIC_CARDS_UPI_AND_INB": {"feeType": "PERCENTAGE", "feeRate": "1.75"}}},
    }
    return builders[step]()


def sample_pdf(label: str) -> bytes:
    """A tiny valid PDF standing in for a document in the sandbox."""
    text = label.encode("ascii", "replace")[:60]
    stream = b"BT /F1 12 Tf 72 720 Td (" + text + b") Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream
        + b"\nendstream",
    ]
    body = b"%PDF-1.4\n"
    offsets = []
    for number, obj in enumerate(objects, start=1):
        offsets.append(len(body))
        body += f"{number} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(body)
    body += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    body += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    body += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"\
        .encode()
    return body
