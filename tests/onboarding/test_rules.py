"""The wizard's pure parts: field paths, request building, locks, the category cache, scenarios."""

from __future__ import annotations

import pytest

from portal.core.models.merchant import CreateState, Merchant
from portal.domain.onboarding import locks, scenarios
from portal.domain.onboarding.categories import CategoryCache, grouped_choices
from portal.domain.onboarding.steps import BY_KEY, STEPS, clean, next_step
from portal.features.wizard.forms import OwnersForm, SignatoryForm
from portal.gateway.onboarding.answers import Category, Subcategory
from portal.gateway.shapes import FieldError, validate_payload
from portal.web.body_forms import form_path


@pytest.mark.parametrize(("path", "root", "parts"), [
    ("[1].pan", "owners", ["owners", "1", "pan"]),
    ("percentageOwnership", "owners", ["owners", "percentageOwnership"]),
    ("contact.email", None, ["contact", "email"]),
    ("address.businessRegisteredAddress.zipcode", None,
     ["address", "businessRegisteredAddress", "zipcode"]),
    ("productFees.INTERNATIONAL_CARDS_AND_ALT_PAYS[2].fee", None,
     ["productFees", "INTERNATIONAL_CARDS_AND_ALT_PAYS", "2", "fee"]),
    ("", "owners", []),
])
def test_gateway_paths_become_form_field_names(path, root, parts):
    assert form_path(path, root) == parts


def test_errors_land_beside_their_field_or_on_top(app):
    with app.test_request_context():
        form = SignatoryForm(data={"contact": {"email": "x"}})
        form.show_errors([FieldError("contact.email", "bad email"),
                          FieldError("authSignatoryPan", "PAN does not exist"),
                          FieldError("contact", "contact is incomplete"),
                          FieldError("authorisedSignatory", "locked after T&C"),
                          FieldError("", "refused")])
        assert form.contact.form.email.errors == ["bad email"]
        assert form.authSignatoryPan.errors == ["PAN does not exist"]
        assert form.nested_errors == {"contact": ["contact is incomplete"]}
        assert form.top_errors == ["locked after T&C", "refused"]

        owners = OwnersForm(data={"owners": [{"name": "A"}, {"name": "B"}]})
        owners.show_errors([FieldError("[1].pan", "PAN does not exist"),
                            FieldError("[7].pan", "no such row"),
                            FieldError("percentageOwnership", "add up to 110")], "owners")
        assert owners.owners.entries[1].form.pan.errors == ["PAN does not exist"]
        assert owners.nested_errors == {"owners": ["no such row", "add up to 110"]}


def test_requests_are_built_from_form_data():
    business = BY_KEY["business"].request({
        "registeredName": " Acme ", "tradeName": "",
        "address": {"isOperatingSameAsRegistered": True,
                    "businessOperatingAddress": {"city": "Pune"}},
        "noPartnershipRegistrationCheck": False,
        "expectedMonthlyVolume": {"amount": "", "currency": "USD"}})
    assert business == {"registeredName": "Acme", "address": {"isOperatingSameAsRegistered": True},
                        "expectedMonthlyVolume": {"currency": "USD"}}
    products = BY_KEY["products"].request({
        "products": ["DOMESTIC_CARDS_UPI_AND_INB", "BOGUS"],
        "productFees": {"GLOBAL_FUND_TRANSFER": {"feeType": "FIXED", "fee": "1"},
                        "DOMESTIC_CARDS_UPI_AND_INB": {"feeType": "FIXED", "feeRate": "2"}}})
    assert products == {"products": ["DOMESTIC_CARDS_UPI_AND_INB"], "productFees": {
        "DOMESTIC_CARDS_UPI_AND_INB": {"feeType": "FIXED", "feeRate": "2"}}}
    owners = BY_KEY["owners"].request({"owners": [{"name": ""}, {"name": "B"}]})
    assert owners == [{}, {"name": "B"}]
    assert clean({"a": [" x ", ""], "b": {"c": ""}}) == {"a": ["x", {}]}


@pytest.mark.parametrize("scenario", list(scenarios.LABELS))
def test_every_scenario_is_valid_for_every_step(scenario):
    for step in STEPS:
        if step.request is None:
            continue
        body = step.request(scenarios.form_data(scenario, step.key))
        _, errors = validate_payload(step.shape, body)
        assert errors == [], (scenario, step.key)


def test_scenarios_choose_the_sandbox_outcomes():
    assert scenarios.form_data(scenarios.HAPPY, "bank")["bankAccountNumber"] == "1234567890"
    assert scenarios.form_data(scenarios.PENNY_DROP_FAILS, "bank")["bankIfscCode"] != "SBIN0000000"
    assert "REJECT" in scenarios.form_data(scenarios.REVIEW_REJECTED, "business")["registeredName"]
    assert "RFI" in scenarios.form_data(scenarios.REVIEW_RFI, "business")["registeredName"]
    pans = {scenarios.form_data(scenarios.HAPPY, "create")["panNumber"] for _ in range(20)}
    assert len(pans) > 1 and all(p[3] == "C" and p[5:9] != "9999" for p in pans)


def merchant_with(**values) -> Merchant:
    defaults = {"checklist": {}, "status": "IN_PROGRESS", "create_state": CreateState.CREATED,
                "onboarding_id": "pg_1"}
    return Merchant(**{**defaults, **values})


@pytest.mark.parametrize(("values", "locked"), [
    ({}, {"create"}),
    ({"checklist": {"tncAcknowledged": "COMPLETE"}}, {"create", "business", "signatory"}),
    ({"checklist": {"vkyc": "COMPLETE"}}, {"create", "owners", "bank", "documents"}),
    ({"status": "PENDING_REVIEW"}, {"create", "owners", "bank", "documents"}),
    ({"status": "RFI"}, {"create", "owners", "bank", "documents"}),
    ({"status": "APPROVED"}, {s.key for s in STEPS if s.available}),
    ({"create_state": CreateState.DRAFT, "onboarding_id": None}, set()),
])
def test_locks_come_from_the_stored_checklist_and_status(values, locked):
    merchant = merchant_with(**values)
    found = {s.key for s in STEPS if s.available and locks.lock_reason(merchant, s)}
    assert found == locked


@pytest.mark.parametrize(("message", "locked"), [
    ("businessDetails cannot be changed after the T&C acknowledgement", True),
    ("The section is locked", True),
    ("PAN does not exist", False),
    ("Blocked by compliance", False),
])
def test_a_refusal_that_says_locked_is_recognised(message, locked):
    assert locks.says_locked(message) is locked


def test_the_category_cache_fetches_again_after_its_ttl():
    now = [0.0]
    fetched: list[int] = []
    table = [Category(categoryCode="BUS", categoryName="Business services", subcategories=[
        Subcategory(categoryCode="BUS.SAAS", categoryName="Software as a service")])]

    def fetch() -> list[Category]:
        fetched.append(1)
        return table

    cache = CategoryCache(ttl=60, clock=lambda: now[0])
    cache.get(fetch)
    now[0] = 59
    cache.get(fetch)
    assert len(fetched) == 1
    now[0] = 60
    assert grouped_choices(cache.get(fetch)) == {
        "Business services": [("BUS.SAAS", "Software as a service")]}
    assert len(fetched) == 2


def test_after_products_comes_verification_then_the_status():
    assert next_step(BY_KEY["signatory"]) is BY_KEY["documents"]
    assert next_step(BY_KEY["products"]) is BY_KEY["verification"]
    assert next_step(BY_KEY["verification"]) is BY_KEY["status"]
    assert next_step(BY_KEY["status"]) is None
