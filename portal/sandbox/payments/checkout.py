"""The sandbox's hosted checkout page: the customer pays, the test values decide, the browser
goes back to the merchant with a signed ``x-gl-token``.

Card numbers are never stored or logged; only the brand and the number masked as the gateway's
status shows it (first six and last four digits) are. The scenario cards (``scenarios``)
authorise, then shape the answers of later calls.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from flask import Blueprint, render_template, request, url_for

from portal.gateway.payments.words import PaymentStatus
from portal.gateway.rules import mask
from portal.sandbox.common.errors import ApiError
from portal.sandbox.payments.auth import CHECKOUT_SCOPE, STATUS_SCOPE, TOKEN_PARAM
from portal.sandbox.payments.backend import PaymentsBackend
from portal.sandbox.payments.records import Outcome, Payment
from portal.sandbox.payments.scenarios import CHECKOUT_OUTCOMES, SCENARIO_CARDS

log = logging.getLogger("portal.sandbox.checkout")

CARD = "CARD"
APPLE_PAY = "APPLE_PAY"
#: Apple Pay is offered for international payments only (spec 1.5).
DOMESTIC_CURRENCY = "INR"

_APPROVED = "GL-201-001"
#: The test cards (docs/gateway-contract.md, "Sandbox test values"): two authorise, two are
#: declined by the issuer; any other card that passes Luhn is "card not allowed".
TEST_CARDS: dict[str, tuple[PaymentStatus, str, str]] = {
    "4111111111111111": (PaymentStatus.AUTHORIZED, _APPROVED, "Approved"),
    "5132552222223470": (PaymentStatus.AUTHORIZED, _APPROVED, "Approved"),
    "4000000000000002": (PaymentStatus.ISSUER_DECLINE, "GL-201-015", "Declined by the issuer"),
    "4000000000009995": (PaymentStatus.ISSUER_DECLINE, "GL-201-009", "Insufficient funds"),
    **{number: CHECKOUT_OUTCOMES.get(scenario, (PaymentStatus.AUTHORIZED, _APPROVED, "Approved"))
       for number, scenario in SCENARIO_CARDS.items()},
}
EXPIRED = (PaymentStatus.ISSUER_DECLINE, "GL-201-007", "The card has expired")
NOT_ALLOWED = (PaymentStatus.ISSUER_DECLINE, "GL-201-012", "This card is not allowed")

_EXPIRY = re.compile(r"^(0[1-9]|1[0-2])\s*/\s*([0-9]{2})$")
_CVV = re.compile(r"^[0-9]{3,4}$")


@dataclass(frozen=True)
class Card:
    """The card form, checked for format."""

    number: str
    month: int
    year: int
    name: str


def luhn_valid(number: str) -> bool:
    """Whether a digit string passes the Luhn check."""
    total = 0
    for index, char in enumerate(reversed(number)):
        digit = int(char) * (2 if index % 2 else 1)
        total += digit - 9 if digit > 9 else digit
    return total % 10 == 0


def masked_number(number: str) -> str:
    """A card number as the gateway's status shows it: first six and last four digits."""
    return number[:6] + "X" * (len(number) - 10) + number[-4:]


def brand_of(number: str) -> str:
    """The card brand from its leading digits."""
    if number.startswith("4"):
        return "VISA"
    if re.match(r"^(5[1-5]|2[2-7])", number):
        return "MASTERCARD"
    if re.match(r"^3[47]", number):
        return "AMEX"
    return "OTHER"


def read_card(form: Mapping[str, str]) -> tuple[Card | None, dict[str, str]]:
    """The card from the page's form, or the message for each field that is not usable."""
    errors: dict[str, str] = {}
    number = re.sub(r"[\s-]", "", form.get("number", ""))
    # the contract's Mastercard test number fails Luhn; test numbers are taken as they are
    if not re.fullmatch(r"[0-9]{12,19}", number) or not (number in TEST_CARDS
                                                          or luhn_valid(number)):
        errors["number"] = "Enter a valid card number (12 to 19 digits)"
    expiry = _EXPIRY.fullmatch(form.get("expiry", "").strip())
    if expiry is None:
        errors["expiry"] = "Enter the expiry date as MM/YY"
    if not _CVV.fullmatch(form.get("cvv", "").strip()):
        errors["cvv"] = "Enter the 3 or 4 digit security code"
    name = form.get("name", "").strip()
    if not name or len(name) > 100:
        errors["name"] = "Enter the name on the card"
    if errors or expiry is None:
        return None, errors
    return Card(number, int(expiry.group(1)), 2000 + int(expiry.group(2)), name), {}


def card_outcome(card: Card, today: date) -> Outcome:
    """What the sandbox's issuer decides for a well-formed card (docs/gateway-contract.md, "Sandbox
    test values")."""
    if (card.year, card.month) < (today.year, today.month):
        status, code, message = EXPIRED
    else:
        status, code, message = TEST_CARDS.get(card.number, NOT_ALLOWED)
    return Outcome(status, code, message, CARD, brand_of(card.number),
                   masked_number(card.number), SCENARIO_CARDS.get(card.number))


def apple_pay_outcome(currency: str) -> Outcome | None:
    """Apple Pay approves international payments; it is not offered for INR."""
    if currency == DOMESTIC_CURRENCY:
        return None
    return Outcome(PaymentStatus.AUTHORIZED, _APPROVED, "Approved", APPLE_PAY)


def status_url(backend: PaymentsBackend, gid: str) -> str:
    """The pre-authenticated ``statusUrl`` of a payment (initiate answer, callback token)."""
    return url_for("sandbox_payments.status", id=gid, _external=True,
                   **{TOKEN_PARAM: backend.scoped_token(gid, STATUS_SCOPE)})


def checkout_blueprint(backend: PaymentsBackend) -> Blueprint:
    """The hosted checkout page over ``backend``."""
    bp = Blueprint("sandbox_checkout", __name__)

    @bp.errorhandler(ApiError)
    def _closed(error: ApiError) -> tuple[str, int]:
        return render_template("checkout/closed.html", message=error.message), error.status

    def open_payment(token: str) -> Payment:
        return backend.get(backend.gid_of(token, CHECKOUT_SCOPE))

    def pay_page(payment: Payment, token: str, errors: dict[str, str], status: int = 200):
        return render_template(
            "checkout/pay.html", payment=payment, token=token, token_param=TOKEN_PARAM,
            errors=errors, form=request.form,
            apple_pay=apple_pay_outcome(payment.currency) is not None,
        ), status

    def return_page(payment: Payment, status: int = 200):
        return render_template("checkout/return.html", payment=payment, token_param=TOKEN_PARAM,
                               callback_token=backend.callback_token(
                                   payment, status_url(backend, payment.gid))), status

    @bp.get("/gl/payflow-ui/")
    def page():
        """Show the amount and the payment methods, or the outcome if already paid."""
        token = request.args.get(TOKEN_PARAM, "")
        payment = open_payment(token)
        if payment.status is not PaymentStatus.INPROGRESS:
            return return_page(payment)
        return pay_page(payment, token, {})

    @bp.post("/gl/payflow-ui/")
    def pay():
        """Decide the payment with the test values and send the customer back."""
        token = request.form.get(TOKEN_PARAM, "")
        payment = open_payment(token)
        if payment.status is not PaymentStatus.INPROGRESS:
            return return_page(payment, 409)
        if request.form.get("method") == "applepay":
            outcome = apple_pay_outcome(payment.currency)
            if outcome is None:
                return pay_page(payment, token, {"method": "Apple Pay is not offered for INR"}, 400)
        else:
            card, errors = read_card(request.form)
            if card is None:
                return pay_page(payment, token, errors, 400)
            outcome = card_outcome(card, backend.today())
            log.info("card %s (%s) for %s", mask(card.number), outcome.brand, payment.gid)
        return return_page(backend.settle(payment.gid, outcome))

    return bp
