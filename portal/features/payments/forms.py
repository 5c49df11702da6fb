"""The payments forms. The hold form's fields are named after the initiate body's JSON fields,
so its data is the body and a gateway error path names its field; the rules themselves are the
shared payments shapes', checked when the hold is sent.
"""

from __future__ import annotations

import re
from typing import Any

import pycountry
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import (
    DataRequired,
    InputRequired,
    Length,
    Optional,
    Regexp,
    StopValidation,
)

from portal.domain.payments.credentials import KID_PATTERN, MID_PATTERN, OWN_KEY, PORTFOLIO
from portal.web.body_forms import PLEASE_CHOOSE, BodyForm, text_field
from portal.web.form_base import PortalForm

DEFAULT_CURRENCY = "INR"
DEFAULT_COUNTRY = "IND"
_ITEM_ACTION = re.compile(r"^remove_item:(\d+)$")
_WHOLE_NUMBER = re.compile(r"^[0-9]+$")


def _currencies() -> list[SelectChoice]:
    return [SelectChoice(c.alpha_3, f"{c.alpha_3} · {c.name}")
            for c in sorted(pycountry.currencies, key=lambda c: c.alpha_3)]


def _countries() -> list[SelectChoice]:
    return [PLEASE_CHOOSE,
            *(SelectChoice(c.alpha_3, f"{c.name} ({c.alpha_3})")
              for c in sorted(pycountry.countries, key=lambda c: c.name))]


# ---------------------------------------------------------------- credentials


_MID_FORMAT = Regexp(MID_PATTERN, message="1 to 64 letters, digits, '_' or '-'.")


def _own_key_only(form: PortalForm, field: Any) -> None:
    """Skip the key fields when the merchant signs with the portfolio key."""
    if getattr(form, "key_source", None) is not None and form.key_source.data == PORTFOLIO:
        field.errors[:] = []
        raise StopValidation()


class KeyPairForm(PortalForm):
    """A key pair as the gateway knows it: its kid, generated here or imported from a PEM."""

    kid = StringField("Key id (kid)", validators=[
        _own_key_only, DataRequired("Enter the key id registered with the gateway."),
        Regexp(KID_PATTERN, message="1 to 128 letters, digits, '.', '_' or '-'.")],
        description="The name of this key pair at the gateway. Every payment request carries "
                    "it (in its x-gl-kid header), so the gateway knows which public key checks "
                    "the request's signature.")
    private_key_pem = TextAreaField(
        "Private key to import (PEM)", validators=[_own_key_only, Optional(), Length(max=20_000)],
        description="Only to import an existing key: paste it as PEM text, the whole block "
                    "from its BEGIN line to its END line (an RSA key of at least 2048 bits, "
                    "without a passphrase). Leave empty to generate a new key pair here.")
    reason = TextAreaField(
        "Reason, for the second admin", validators=[Optional(), Length(max=1000)],
        description="Needed to import a key or replace one: another admin approves it on the "
                    "Approvals page before it takes effect.")

    def imported_pem(self) -> str | None:
        """The PEM to import, or None to generate a key pair."""
        text = (self.private_key_pem.data or "").strip()
        return text or None


class CredentialsForm(KeyPairForm):
    """The merchant's MID, and its own key pair or the partner's portfolio key."""

    mid = StringField("Merchant id (MID)", validators=[
        DataRequired("Enter the MID the gateway gave this merchant."), _MID_FORMAT])
    key_source = RadioField("Signing key", default=OWN_KEY, choices=[
        SelectChoice(OWN_KEY, "This merchant's own key pair"),
        SelectChoice(PORTFOLIO, "The partner's portfolio key (signs for this MID as a "
                                "sub-merchant)")])
    replace = BooleanField("Replace the current credentials: payments signed with the old key "
                           "stop working")


class PortfolioKeyForm(KeyPairForm):
    """The partner's one portfolio key: its parent MID and key pair."""

    parent_mid = StringField("Parent MID (portfolio)", validators=[
        DataRequired("Enter the parent MID the gateway gave the partner."), _MID_FORMAT],
        description="Sent as issued-by and x-gl-kid-mid; each merchant keeps its own MID.")
    replace = BooleanField("Replace the portfolio key: every merchant using it signs with the "
                           "new key at once")


# ---------------------------------------------------------------- hold


class BillingForm(Form):
    """The payer's billing details (spec 2.3)."""

    firstName = text_field("First name")
    lastName = text_field("Last name")
    emailId = text_field("Email")
    callingCode = text_field("Calling code", "With the +, e.g. +91.")
    phoneNumber = text_field("Phone number",
                             "Without the calling code, digits only, e.g. 9876543210.")
    addressStreet1 = text_field("Street address, line 1")
    addressStreet2 = text_field("Street address, line 2")
    addressCity = text_field("City")
    addressState = text_field("State")
    addressStateCode = text_field("State code")
    addressPostalCode = text_field("Postal code")
    addressCountry = SelectField("Country", choices=_countries(), default=DEFAULT_COUNTRY,
                                 validate_choice=False)


class PaymentDataForm(Form):
    """What is to be authorised."""

    totalAmount = text_field("Amount", "Up to 4 decimal places, e.g. 1250.50.")
    txnCurrency = SelectField("Currency", choices=_currencies(), default=DEFAULT_CURRENCY,
                              validate_choice=False)
    billingData = FormField(BillingForm, "Customer billing details")


class OrderItemForm(Form):
    """One line of the order."""

    itemId = text_field("Item id")
    itemName = text_field("Item name")
    itemQuantity = text_field("Quantity", "A whole number.")
    itemPrice = text_field("Unit price", "Up to 4 decimal places.")
    itemCategory = text_field("Category")


class RiskDataForm(Form):
    """Optional fraud-check data: the order's items."""

    orderData = FieldList(FormField(OrderItemForm), "Order items", min_entries=0)


def _compact(value: Any) -> Any:
    """Drop empty strings, empty groups and empty rows: the gateway gets only what was typed."""
    if isinstance(value, dict):
        kept = {k: _compact(v) for k, v in value.items()}
        return {k: v for k, v in kept.items() if v not in ("", None, {}, [])}
    if isinstance(value, list):
        return [row for row in (_compact(v) for v in value) if row not in ("", None, {}, [])]
    return value.strip() if isinstance(value, str) else value


class HoldForm(BodyForm):
    """A new hold: amount, currency, billing details and optional order items."""

    merchantTxnId = HiddenField()
    merchantUniqueId = HiddenField()
    paymentData = FormField(PaymentDataForm, "Payment")
    riskData = FormField(RiskDataForm, "Order (optional, helps the fraud check)")

    def payload(self) -> dict[str, Any]:
        """The form as the initiate body's fields (without captureTxn and the callback URL)."""
        body = _compact(super().payload())
        for item in body.get("riskData", {}).get("orderData", []):
            quantity = item.get("itemQuantity")
            if isinstance(quantity, str) and _WHOLE_NUMBER.fullmatch(quantity):
                item["itemQuantity"] = int(quantity)
        return body

    def row_action(self, action: str) -> bool:
        """'add_item' appends an empty order row, 'remove_item:N' drops row N; typing is kept."""
        rows = list(self.riskData.orderData.data)
        removal = _ITEM_ACTION.fullmatch(action)
        if action == "add_item":
            rows.append({})
        elif removal:
            del rows[int(removal.group(1)):int(removal.group(1)) + 1]
        else:
            return False
        self.riskData.orderData.process(None, rows)
        return True


# ---------------------------------------------------------------- actions on a payment


class ActionForm(PortalForm):
    """Every action form: the payment's one-time nonce and a required confirmation."""

    nonce = HiddenField(validators=[DataRequired("This form is incomplete; reload the page.")])
    confirm = BooleanField("I confirm", validators=[
        InputRequired("Tick the confirmation box to go ahead.")])
    amount = StringField("Amount", validators=[Optional()])
    again = BooleanField("This is a second refund of the same amount")
    reason = TextAreaField("Reason, for the second admin", validators=[
        Optional(), Length(max=1000, message="Keep the reason under 1000 characters.")])

    def amount_or_none(self) -> str | None:
        """The amount typed, or None (the whole amount)."""
        return (self.amount.data or "").strip() or None


class AskSetupForm(PortalForm):
    """An ops user asks an admin to set up the merchant's payments (the CSRF token alone)."""
