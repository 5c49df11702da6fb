"""Values typed the way people write them elsewhere are tidied before the gateway's rules check
them: a state code in small letters, an amount with thousands separators, a phone number with
spaces; in the wizard and in a bulk file alike. What cannot be tidied is explained."""

from __future__ import annotations

import json

import pytest

from portal.domain.onboarding import scenarios
from portal.features.bulk.parsing import read_row
from portal.features.bulk.validation import step_errors
from portal.web.body_forms import typed_value
from tests.bulk.support import example_rows
from tests.wizard.support import typed


def last_body(sandbox, suffix: str) -> dict:
    log = sandbox.state.onboarding.received_requests()
    return json.loads([r for r in log if r.raw_path.endswith(suffix)][-1].body)


@pytest.mark.parametrize(("name", "typed_as", "sent_as"), [
    ("stateCode", "mh", "MH"),
    ("stateCode", " Mh ", "MH"),
    ("amount", "50,000", "50000"),
    ("amount", "5,00,000", "500000"),
    ("amount", "50 000", "50000"),
    ("amount", "50,000.50", "50,000.50"),  # not a whole amount: explained, not guessed
    ("phone", "98765 43210", "+919876543210"),
    ("phone", "+91 98765-43210", "+919876543210"),
    ("phone", "(022) 2345 6789", "02223456789"),  # a landline needs its calling code: explained
    ("phoneNumber", "98765 43210", "9876543210"),
    ("zipcode", "400 001", "400001"),
    ("registeredName", "mh traders", "mh traders"),
])
def test_typed_values_are_tidied_by_field(name, typed_as, sent_as):
    assert typed_value(name, typed_as) == sent_as


def test_the_wizard_sends_tidied_values(browser, new_merchant, sandbox):
    base = f"/merchants/{new_merchant}/steps"
    page = browser.submit(browser.get(f"{base}/business"), typed(
        scenarios.HAPPY, "business", **{
            "address-businessRegisteredAddress-stateCode": "mh",
            "expectedMonthlyVolume-amount": "5,00,000"}))
    assert "sent to the gateway" in page.text(), page.text()
    body = last_body(sandbox, "/business-details")
    assert body["address"]["businessRegisteredAddress"]["stateCode"] == "MH"
    assert body["expectedMonthlyVolume"]["amount"] == "500000"
    for step in ("owners", "bank"):
        browser.submit(browser.get(f"{base}/{step}"), typed(scenarios.HAPPY, step))
    page = browser.submit(browser.get(f"{base}/signatory"), typed(
        scenarios.HAPPY, "signatory", **{"contact-phone": "98765 43210"}))
    assert "sent to the gateway" in page.text(), page.text()
    assert last_body(sandbox, "/auth-signatory")["contact"]["phone"] == "+919876543210"


def test_a_value_that_cannot_be_tidied_is_explained_beside_its_field(browser, new_merchant):
    page = browser.submit(browser.get(f"/merchants/{new_merchant}/steps/business"), typed(
        scenarios.HAPPY, "business", **{"expectedMonthlyVolume-amount": "50,000.50"}))
    assert "A whole number without separators or decimals" in page.text()


def test_a_bulk_row_is_tidied_as_the_wizard_tidies(app):
    cells = {**example_rows()[0], "registered_stateCode": "mh", "volume_amount": "50,000",
             "contact_phone": "98765 43210"}
    row, unreadable = read_row(2, cells)
    assert unreadable == []
    with app.app_context():
        assert step_errors(row) == []
    assert row.forms["business"]["address"]["businessRegisteredAddress"]["stateCode"] == "MH"
    assert row.forms["signatory"]["contact"]["phone"] == "+919876543210"
