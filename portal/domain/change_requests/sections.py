"""The sections of a merchant's details a change request may change, one row each: the step
that holds it, its fields (by the step's payload path) in words, and the proof the gateway's
support needs for the change.

The gateway answers a change after its locks only through its support, which resets the
onboarding record (docs/gateway-facts.md A6); the proofs follow its requirements page (a
cancelled cheque for a bank account, docs/gateway-facts.md A4).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from portal.core.labels import Kind, label
from portal.gateway.onboarding.vocabulary import Product
from portal.gateway.rules import mask


@dataclass(frozen=True)
class Field:
    """One field of a section: its path in the step's payload, its label, how it is shown."""

    path: str
    label: str
    #: A secret shown masked everywhere but the email's new values (account numbers, PANs).
    masked: bool = False
    #: A choice of several of these (code, words); its value is the codes, comma-separated.
    choices: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Section:
    """A section of the merchant's details that a change request changes."""

    key: str
    title: str
    step: str
    #: The gateway's name of the section its support resets (its lock error names it so).
    gateway_section: str
    fields: tuple[Field, ...]
    #: The document types that prove the change (any one), and the proof in words.
    proof_types: tuple[str, ...] = ()
    proof_words: str = ""


SECTIONS = (
    Section("bank", "Bank account", "bank", "bankDetails", (
        Field("bankAccountNumber", "Account number", masked=True),
        Field("bankIfscCode", "IFSC"),
        Field("accountHolderName", "Account holder's name")),
        ("CANCELLED_CHEQUE",), "A cancelled cheque of the new account"),
    Section("signatory", "Authorised signatory", "signatory", "authorisedSignatory", (
        Field("authSignatoryName", "Name"),
        Field("authSignatoryPan", "PAN", masked=True)),
        ("REPRESENTATIVE_DOC", "BR", "AUTH_SIGNATORY"),
        "A board resolution or an authorisation letter appointing the new signatory"),
    Section("contact", "Contact details", "signatory", "authorisedSignatory", (
        Field("contact.email", "Email"),
        Field("contact.phone", "Phone"))),
    Section("address", "Registered address", "business", "businessDetails", (
        Field("address.businessRegisteredAddress.streetAddress1", "Street address"),
        Field("address.businessRegisteredAddress.streetAddress2", "Street address, line 2"),
        Field("address.businessRegisteredAddress.city", "City"),
        Field("address.businessRegisteredAddress.zipcode", "PIN code"),
        Field("address.businessRegisteredAddress.state", "State")),
        ("UTILITY_BILL", "OPERATING_ADDRESS_PROOF"),
        "A utility bill or a rent agreement at the new address"),
    Section("products", "Products", "products", "products", (
        Field("products", "Products", choices=tuple(
            (product.value, label(product, Kind.PRODUCT)) for product in Product)),)),
)
BY_KEY = {section.key: section for section in SECTIONS}


def read(payload: Mapping[str, Any], path: str) -> str:
    """The value at a dotted ``path`` of a step's payload ('' where there is none)."""
    value: Any = payload
    for part in path.split("."):
        value = value.get(part) if isinstance(value, Mapping) else None
    if isinstance(value, list):
        return ",".join(str(item) for item in value)
    return "" if value is None else str(value)


def write(payload: dict[str, Any], path: str, value: str) -> None:
    """Set the value at a dotted ``path`` of a step's payload, making the objects on the way."""
    *parents, last = path.split(".")
    node = payload
    for part in parents:
        node = node.setdefault(part, {})
    node[last] = value


def shown(field: Field, value: str) -> str:
    """A value as pages show it: a secret masked, choices in words, an empty one as a dash."""
    if not value:
        return "—"
    return mask(value) if field.masked else in_full(field, value)


def in_full(field: Field, value: str) -> str:
    """A value whole, as the support's email gives the new one: choices in words."""
    if not field.choices:
        return value
    words = dict(field.choices)
    return ", ".join(words.get(code, code) for code in value.split(",") if code)


#: Each state of a change request in words, and what happens next.
STATE_WORDS = {
    "drafted": ("Waiting for approval", "A second person approves it on the Approvals page; "
                                        "then it is emailed to the gateway's support."),
    "approved": ("Approved, not emailed yet", "Email it to the gateway's support."),
    "sent": ("Emailed to the gateway's support", "Record their answer once they reply."),
    "reopened": ("Record reset: send the change", "Send the step again with the new values; "
                                                  "it locks again once sent."),
    "applied": ("Done", "The change was sent to the gateway."),
    "refused": ("Refused", "Nothing changed. Ask again if the reason no longer holds."),
}
