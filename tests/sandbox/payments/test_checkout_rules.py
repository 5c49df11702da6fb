"""The hosted page's decisions as plain functions: card form checks and the test values."""

from __future__ import annotations

from datetime import date

import pytest

from portal.gateway.payments.words import PaymentStatus
from portal.sandbox.payments.checkout import (
    Card,
    apple_pay_outcome,
    brand_of,
    card_outcome,
    luhn_valid,
    read_card,
)
from tests.sandbox.payments.support import initiate_body, pay_by_card

TODAY = date(2026, 6, 15)
GOOD = {"number": "4111 1111 1111 1111", "expiry": "06/26", "cvv": "123", "name": "Asha Rao"}


def test_luhn():
    assert luhn_valid("4111111111111111")
    assert not luhn_valid("4111111111111112")


@pytest.mark.parametrize(("number", "brand"), [("4111111111111111", "VISA"),
                                               ("5132552222223470", "MASTERCARD"),
                                               ("2221000000000009", "MASTERCARD"),
                                               ("378282246310005", "AMEX"),
                                               ("6011111111111117", "OTHER")])
def test_brand(number, brand):
    assert brand_of(number) == brand


def test_well_formed_card_is_read_without_spaces():
    card, errors = read_card(GOOD)
    assert errors == {}
    assert card == Card("4111111111111111", 6, 2026, "Asha Rao")


@pytest.mark.parametrize(("field", "value"), [
    ("number", "4111111111111112"), ("number", "41111"), ("number", "4111-abcd"),
    ("expiry", "13/26"), ("expiry", "0626"), ("expiry", ""),
    ("cvv", "12"), ("cvv", "12a"), ("name", " "), ("name", "x" * 101),
])
def test_malformed_field_is_a_form_error(field, value):
    card, errors = read_card({**GOOD, field: value})
    assert card is None
    assert list(errors) == [field]


def test_contract_mastercard_is_accepted_although_it_fails_luhn():
    assert not luhn_valid("5132552222223470")
    assert read_card({**GOOD, "number": "5132552222223470"})[1] == {}


@pytest.mark.parametrize(("number", "status", "code"), [
    ("4111111111111111", PaymentStatus.AUTHORIZED, "GL-201-001"),
    ("5132552222223470", PaymentStatus.AUTHORIZED, "GL-201-001"),
    ("4000000000000002", PaymentStatus.ISSUER_DECLINE, "GL-201-015"),
    ("4000000000009995", PaymentStatus.ISSUER_DECLINE, "GL-201-009"),
    ("4242424242424242", PaymentStatus.ISSUER_DECLINE, "GL-201-012"),
])
def test_test_values_decide(number, status, code):
    outcome = card_outcome(Card(number, 12, 2030, "A"), TODAY)
    assert (outcome.status, outcome.reason_code) == (status, code)


def test_card_expiring_this_month_is_still_valid():
    assert card_outcome(Card("4111111111111111", 6, 2026, "A"), TODAY).status == "AUTHORIZED"


def test_card_expired_last_month_is_declined():
    outcome = card_outcome(Card("4111111111111111", 5, 2026, "A"), TODAY)
    assert (outcome.status, outcome.reason_code) == ("ISSUER_DECLINE", "GL-201-007")


def test_apple_pay_only_for_international_currencies():
    assert apple_pay_outcome("INR") is None
    assert apple_pay_outcome("USD").status == PaymentStatus.AUTHORIZED


def test_card_numbers_are_not_logged(client, http, caplog):
    caplog.set_level("DEBUG")
    started = client.initiate(initiate_body())
    pay_by_card(http, started.data.redirectUrl, "4000000000009995")
    assert "4000000000009995" not in caplog.text
    assert "9995" in caplog.text
