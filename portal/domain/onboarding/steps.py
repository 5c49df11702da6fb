"""The table of the nine onboarding steps: what each one sends, how, and what locks it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.onboarding.reading import RecordAnswer
from portal.gateway.onboarding.requests import (
    ADDRESS_FIELD,
    OPERATING_ADDRESS_FIELD,
    AuthSignatoryRequest,
    BankDetailsRequest,
    BeneficialOwnersRequest,
    BusinessDetailsRequest,
    ConfigureProductsRequest,
    CreateOnboardingRequest,
    DocumentUploadRequest,
)
from portal.gateway.onboarding.vocabulary import Product

#: A step's call to the gateway: (client, the merchant's onboardingId, validated body).
SendCall = Callable[[OnboardingClient, str, Any], RecordAnswer]


class Lock:
    """The events after which the gateway refuses a step's changes."""

    TNC = "tnc"
    VERIFICATION = "verification"


def clean(value: Any) -> Any:
    """Form data as JSON for a request: strings stripped, blanks and empty objects dropped."""
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, dict):
        kept = {k: clean(v) for k, v in value.items()}
        kept = {k: v for k, v in kept.items() if v is not None}
        return kept or None
    if isinstance(value, list):
        return [item if item is not None else {} for item in map(clean, value)]
    return value


def _fields_of(shape: type[BaseModel]) -> Callable[[dict[str, Any]], Any]:
    """A step's body: the shape's own fields of the form's data (derived from the shape, so a
    field added to it is sent without another edit)."""
    names = tuple(shape.model_fields)

    def build(data: dict[str, Any]) -> Any:
        return clean({name: data.get(name) for name in names}) or {}

    return build


def _business(data: dict[str, Any]) -> Any:
    body = clean(data) or {}
    addresses = body.get(ADDRESS_FIELD)
    if isinstance(addresses, dict) and addresses.get("isOperatingSameAsRegistered"):
        addresses.pop(OPERATING_ADDRESS_FIELD, None)
    if not body.get("noPartnershipRegistrationCheck"):
        body.pop("noPartnershipRegistrationCheck", None)
    return body


def _owners(data: dict[str, Any]) -> Any:
    return clean(data.get("owners") or []) or []


def _products(data: dict[str, Any]) -> Any:
    chosen = [p for p in data.get("products") or [] if p in Product.__members__]
    fees = data.get("productFees") or {}
    return {"products": chosen,
            "productFees": clean({p: fees.get(p) for p in chosen}) or {}}


def _create(client: OnboardingClient, onboarding_id: str, body: Any) -> RecordAnswer:
    """Step 1's call: there is no onboardingId yet, the answer brings it."""
    return client.create_onboarding(body)


@dataclass(frozen=True)
class Step:
    """One wizard step.

    ``send`` is the step's gateway call; ``request`` turns the stored form data into its
    body; ``root`` is the form field that holds a body which is a bare array (the owners), for
    mapping ``[1].pan``.
    """

    key: str
    number: int
    title: str
    send: SendCall | None = None
    shape: Any = None
    request: Callable[[dict[str, Any]], Any] | None = None
    checklist_key: str | None = None
    lock: str | None = None
    root: str | None = None
    #: False for the steps without a form to send (verification, status): the wizard's
    #: form pages and locks skip them; they have pages of their own.
    available: bool = True
    #: Step 1: its send creates the gateway's record (every other step needs that record).
    creates_record: bool = False
    #: Step 4: its answer carries the penny drop's verdict on the bank account.
    checks_account: bool = False


STEPS: tuple[Step, ...] = (
    Step("create", 1, "Create", _create, CreateOnboardingRequest,
         _fields_of(CreateOnboardingRequest), creates_record=True),
    Step("business", 2, "Business details", OnboardingClient.update_business_details,
         BusinessDetailsRequest, _business, "businessDetails", Lock.TNC),
    Step("owners", 3, "Beneficial owners", OnboardingClient.add_beneficial_owners,
         BeneficialOwnersRequest, _owners, "beneficialOwners", Lock.VERIFICATION, root="owners"),
    Step("bank", 4, "Bank details", OnboardingClient.update_bank_details, BankDetailsRequest,
         _fields_of(BankDetailsRequest),
         "bankDetails", Lock.VERIFICATION, checks_account=True),
    Step("signatory", 5, "Authorised signatory", OnboardingClient.update_auth_signatory,
         AuthSignatoryRequest, _fields_of(AuthSignatoryRequest),
         "authorisedSignatory", Lock.TNC),
    Step("documents", 6, "Documents", OnboardingClient.upload_document, DocumentUploadRequest,
         checklist_key="documents", lock=Lock.VERIFICATION),
    Step("products", 7, "Products", OnboardingClient.configure_products,
         ConfigureProductsRequest, _products, "products"),
    Step("verification", 8, "Verification", available=False),
    Step("status", 9, "Status", available=False),
)
BY_KEY: dict[str, Step] = {step.key: step for step in STEPS}


def next_step(step: Step) -> Step | None:
    """The step after ``step``, if any: after products (7) comes verification (8), a page of
    its own rather than a form, and then the status."""
    return next((s for s in STEPS if s.number > step.number), None)
