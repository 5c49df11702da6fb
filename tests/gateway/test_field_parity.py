"""The shapes hold the fields once: each step sends every field of its request shape, the wizard
has a form field for each, and the sandbox's answer shows each one back (by name, or as the
answer renames it, named here with why). Adding an optional field is the request shape, the
answer shape and the form; forgetting any of them fails here."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from portal.domain.onboarding.steps import BY_KEY
from portal.features.wizard.forms import BankForm, BusinessForm, CreateForm, SignatoryForm
from portal.gateway.onboarding.answers import (
    BusinessDetailsInfo,
    ContactInfo,
    SettlementInfo,
    SignatoryInfo,
)
from portal.gateway.onboarding.requests import (
    AuthSignatoryRequest,
    BankDetailsRequest,
    BusinessDetailsRequest,
    Contact,
)
from portal.sandbox.onboarding.present import echoed
from tests.gateway.shape_samples import ADDRESS, BUSINESS, SIGNATORY

BANK = {"bankAccountNumber": "1234567890", "bankIfscCode": "SBIN0000000",
        "accountHolderName": "Asha Rao", "accountType": "CURRENT"}
FULL_BUSINESS = {**BUSINESS, "tradeName": "Asha Stores", "iec": "ABCDE12345",
                 "noPartnershipRegistrationCheck": True,
                 "address": {"isOperatingSameAsRegistered": False,
                             "businessRegisteredAddress": ADDRESS,
                             "businessOperatingAddress": ADDRESS}}
#: Request fields an answer shows under another name or shape, and why.
RENAMED = {
    "expectedMonthlyVolume": "shown as businessMonthlySize, its amount (spec 2.3)",
    "address": "shown flat, as businessRegisteredAddress and businessOperatingAddress (spec 2.3)",
    "noPartnershipRegistrationCheck": "a flag for the gateway's check, not part of the record",
}


@pytest.mark.parametrize(("step", "body"), [
    ("create", {"externalOnboardingId": "ext-1", "panNumber": "ABCCE1234F"}),
    ("business", FULL_BUSINESS), ("bank", BANK), ("signatory", SIGNATORY)])
def test_each_step_sends_every_field_of_its_shape(step: str, body: dict) -> None:
    shape = BY_KEY[step].shape
    assert set(body) == set(shape.model_fields), "the sample names every field of the shape"
    sent = BY_KEY[step].request(body)
    assert set(sent) == set(shape.model_fields)


@pytest.mark.parametrize(("form", "shape"), [
    (CreateForm, BY_KEY["create"].shape), (BusinessForm, BusinessDetailsRequest),
    (BankForm, BankDetailsRequest), (SignatoryForm, AuthSignatoryRequest)])
def test_the_wizard_has_a_field_for_every_field_of_the_shape(form, shape) -> None:
    fields = {name for name in dir(form) if not name.startswith("_")}
    assert set(shape.model_fields) <= fields


@pytest.mark.parametrize(("shape", "body", "answer"), [
    (BusinessDetailsRequest, FULL_BUSINESS, BusinessDetailsInfo),
    (BankDetailsRequest, BANK, SettlementInfo), (AuthSignatoryRequest, SIGNATORY, SignatoryInfo),
    (Contact, SIGNATORY["contact"], ContactInfo)])
def test_the_sandbox_shows_every_field_back(shape: type[BaseModel], body: dict,
                                            answer: type[BaseModel]) -> None:
    sent = shape.model_validate(body)
    shown = set(echoed(sent, answer))
    missing = set(shape.model_fields) - shown - set(RENAMED)
    assert not missing, f"the answer shape {answer.__name__} lacks {sorted(missing)}"
    assert set(RENAMED) <= set(BusinessDetailsRequest.model_fields)
