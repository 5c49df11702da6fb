"""The bulk CSV's columns: where each one lands in a wizard step's form data, and back.

A row becomes, per step, the same form data the wizard stores as a draft; the step table in
``portal.domain.onboarding.steps`` turns it into the request body and the shared shapes validate it.
Column names are the gateway's field names, nested ones prefixed by their group
(``registered_zipcode``, ``contact_email``, ``owner2_pan``, ``intl_DINERS_fee``), so every name
comes from the shapes and none is spelled twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from portal.domain.onboarding.steps import BY_KEY
from portal.gateway.onboarding.requests import (
    ADDRESS_FIELD,
    Address,
    AuthSignatoryRequest,
    BankDetailsRequest,
    BeneficialOwner,
    BusinessAddresses,
    BusinessDetailsRequest,
    ConfigureProductsRequest,
    Contact,
    CreateOnboardingRequest,
    DomesticFee,
    FixedOrPercentageFee,
    MonthlyVolume,
    NetworkFee,
    ProductFees,
)
from portal.gateway.onboarding.vocabulary import DOCUMENT_TYPES, CardNetwork, Product
from portal.web.body_forms import form_path

#: Owner column groups: owner1_* .. owner4_*.
MAX_OWNERS = 4
#: Step key of the columns that name files (the CLI uploads them; the page skips them).
DOCUMENTS = "documents"
#: What separates the products in the ``products`` cell.
LIST_SEPARATOR = "|"
#: The portal-only name typed at step 1 (the wizard's CreateForm field; never sent).
DISPLAY_NAME = "displayName"
#: The email of the user who will own the merchant (``portal.features.ownership``; never sent).
OWNER = "owner"
#: Owner fields by their short column suffix.
OWNER_SUFFIXES = {"percentage": "percentageOwnership"}
AADHAR_SUFFIX = "aadhar"
DOC_PREFIX = "doc_"

Path = tuple[str | int, ...]


class Kind(StrEnum):
    """How a cell is read."""

    TEXT = "text"
    FLAG = "flag"
    LIST = "list"
    FILE = "file"


@dataclass(frozen=True)
class Column:
    """One CSV column: its step and where its value goes in that step's form data."""

    name: str
    step: str
    path: Path
    kind: Kind = Kind.TEXT

    @property
    def parts(self) -> tuple[str, ...]:
        """The path as form field names (what ``form_path`` gives for a gateway path)."""
        return tuple(str(part) for part in self.path)


#: Values the wizard's forms fill in themselves (the currency select, the hidden networks).
FIXED: dict[str, dict[Path, str]] = {
    "business": {("expectedMonthlyVolume", "currency"): "USD"},
    "products": {("productFees", "INTERNATIONAL_CARDS_AND_ALT_PAYS", index, "cardNetwork"):
                 network.value for index, network in enumerate(CardNetwork)},
}


def _flat(step: str, shape: type, *, skip: tuple[str, ...] = (),
          flags: tuple[str, ...] = ()) -> list[Column]:
    return [Column(name, step, (name,), Kind.FLAG if name in flags else Kind.TEXT)
            for name in shape.model_fields if name not in skip]


def _group(step: str, prefix: str, shape: type, path: Path, skip: tuple[str, ...] = (),
           suffixes: dict[str, str] | None = None) -> list[Column]:
    names = {field: field for field in shape.model_fields if field not in skip}
    names.update({field: short for short, field in (suffixes or {}).items()})
    return [Column(f"{prefix}_{short}", step, (*path, field)) for field, short in names.items()]


def _business() -> list[Column]:
    # The addresses are nested under ``address`` in the request, not in the file: their
    # columns keep the names they had when the request was flat (no user has to change one).
    flag = "isOperatingSameAsRegistered"
    columns = _flat("business", BusinessDetailsRequest,
                    skip=("expectedMonthlyVolume", ADDRESS_FIELD),
                    flags=("noPartnershipRegistrationCheck",))
    columns.append(Column(flag, "business", (ADDRESS_FIELD, flag), Kind.FLAG))
    columns += _group("business", "volume", MonthlyVolume, ("expectedMonthlyVolume",),
                      ("currency",))
    addresses = {"businessRegisteredAddress": "registered", "businessOperatingAddress": "operating"}
    assert set(addresses) | {flag} == set(BusinessAddresses.model_fields)
    for field, prefix in addresses.items():
        columns += _group("business", prefix, Address, (ADDRESS_FIELD, field))
    return columns


def _owners() -> list[Column]:
    return [column for n in range(MAX_OWNERS)
            for column in _group("owners", f"owner{n + 1}", BeneficialOwner, ("owners", n),
                                 suffixes=OWNER_SUFFIXES)]


def _products() -> list[Column]:
    fees = ("productFees",)
    columns = [Column(name, "products", (name,), Kind.LIST)
               for name in ConfigureProductsRequest.model_fields if name != "productFees"]
    columns += _group("products", "gft", FixedOrPercentageFee,
                      (*fees, Product.GLOBAL_FUND_TRANSFER.value))
    for index, network in enumerate(CardNetwork):
        columns += _group("products", f"intl_{network.value}", NetworkFee,
                          (*fees, Product.INTERNATIONAL_CARDS_AND_ALT_PAYS.value, index),
                          skip=("cardNetwork",))
    columns += _group("products", "domestic", DomesticFee,
                      (*fees, Product.DOMESTIC_CARDS_UPI_AND_INB.value))
    assert set(ProductFees.model_fields) == {p.value for p in Product}
    return columns


def _documents() -> list[Column]:
    columns = [Column(DOC_PREFIX + doc_type, DOCUMENTS, (doc_type,), Kind.FILE)
               for doc_type in DOCUMENT_TYPES]
    columns += [Column(f"owner{n + 1}_{AADHAR_SUFFIX}", DOCUMENTS, ("owners", n), Kind.FILE)
                for n in range(MAX_OWNERS)]
    return columns


COLUMNS: tuple[Column, ...] = (
    Column(DISPLAY_NAME, "create", (DISPLAY_NAME,)),
    Column(OWNER, "create", (OWNER,)),
    *_flat("create", CreateOnboardingRequest),
    *_business(),
    *_owners(),
    *_flat("bank", BankDetailsRequest),
    *_flat("signatory", AuthSignatoryRequest, skip=("contact",)),
    *_group("signatory", "contact", Contact, ("contact",)),
    *_products(),
    *_documents(),
)
BY_NAME: dict[str, Column] = {column.name: column for column in COLUMNS}
#: The steps a row is sent through, in the wizard's order (documents between 5 and 7).
FORM_STEPS = ("create", "business", "owners", "bank", "signatory", "products")
EXTERNAL_ID = "externalOnboardingId"
PAN = "panNumber"


def column_for(step: str, gateway_path: str) -> str:
    """The column (or a wildcard such as ``operating_*``) a gateway error path points at."""
    parts = tuple(form_path(gateway_path, BY_KEY[step].root))
    mine = [c for c in COLUMNS if c.step == step]
    covering = [c for c in mine if parts[:len(c.parts)] == c.parts]
    if covering:
        return max(covering, key=lambda c: len(c.parts)).name
    below = [c.name for c in mine if parts and c.parts[:len(parts)] == parts]
    same_field = [c.name for c in mine if parts and c.parts[-1] == parts[-1]]
    return wildcard(below or same_field) or step


def wildcard(names: list[str]) -> str:
    """One label for several columns: ``owner1_pan, owner2_pan`` -> ``owner*_pan``."""
    if len(names) <= 1:
        return names[0] if names else ""
    prefix = _shared_start(names)
    suffix = _shared_start([name[::-1] for name in names])[::-1]
    prefix = prefix[:prefix.rfind("_") + 1] if "_" in prefix else prefix
    suffix = suffix[suffix.find("_"):] if "_" in suffix else ""
    return f"{prefix}*{suffix}"


def _shared_start(names: list[str]) -> str:
    """The longest start all ``names`` share (the first and last in order bound the rest)."""
    first, last = min(names), max(names)
    size = next((i for i, (a, b) in enumerate(zip(first, last, strict=False)) if a != b),
                len(first))
    return first[:size]
