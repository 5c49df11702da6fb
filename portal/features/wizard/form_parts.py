"""The groups the wizard's step forms nest: addresses, owners, contact, product fees.

Each group is named after the JSON object of the request shapes it fills, so its data nests in
the step's payload as the gateway expects it.
"""

from __future__ import annotations

from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    SelectChoice,
    SelectField,
)

from portal.core.labels import Kind, label
from portal.gateway.onboarding.vocabulary import CardNetwork, FeeType, Product
from portal.web.body_forms import labelled_select, text_field


class AddressForm(Form):
    """A registered or operating address."""

    streetAddress1 = text_field("Street address, line 1")
    streetAddress2 = text_field("Street address, line 2")
    zipcode = text_field("PIN code", "Six digits, not starting with 0.")
    city = text_field("City")
    state = text_field("State")
    stateCode = text_field("State code", "Two capital letters.")


class AddressesForm(Form):
    """The registered address and, when it differs, the operating one (sent as ``address``)."""

    isOperatingSameAsRegistered = BooleanField("The business operates at its registered address",
                                               default=True)
    businessRegisteredAddress = FormField(AddressForm, "Registered address")
    businessOperatingAddress = FormField(
        AddressForm, "Operating address",
        description="Only when it differs from the registered address; then an operating "
                    "address proof is required.")


class VolumeForm(Form):
    """Expected monthly volume."""

    amount = text_field("Amount", "A whole number, no separators.")
    currency = SelectField("Currency", choices=[SelectChoice("USD")], default="USD",
                           validate_choice=False)


class OwnerForm(Form):
    """One beneficial owner row."""

    designation = text_field("Designation")
    name = text_field("Full name")
    pan = text_field("PAN", "A person's PAN: the 4th letter is P.")
    percentageOwnership = text_field("Ownership %", "10 to 100, up to two decimals.")

    def title(self, number: int) -> str:
        """The row's name on the page and in the error summary."""
        return f"Owner {number}"


class ContactForm(Form):
    """The signatory's contact."""

    phone = text_field("Phone", "International format with the calling code.")
    email = text_field("Email")


class FixedFeeForm(Form):
    """GLOBAL_FUND_TRANSFER's fee."""

    feeType = labelled_select("Fee type", FeeType, Kind.FEE_TYPE)
    fee = text_field("Fee", "Up to two decimals; a percentage is at most 100.")


class NetworkFeeForm(Form):
    """One card network's fee."""

    cardNetwork = HiddenField()
    feeType = labelled_select("Fee type", FeeType, Kind.FEE_TYPE)
    fee = text_field("Fee", "Up to two decimals; a percentage is at most 100.")

    def title(self, number: int) -> str:
        """The row's name on the page and in the error summary: its card network."""
        return label(self.cardNetwork.data or "", Kind.CARD_NETWORK)


class DomesticFeeForm(Form):
    """DOMESTIC_CARDS_UPI_AND_INB's fee rate."""

    feeType = labelled_select("Fee type", FeeType, Kind.FEE_TYPE)
    feeRate = text_field("Fee rate", "Up to two decimals.")


class ProductFeesForm(Form):
    """Fees keyed by product."""

    GLOBAL_FUND_TRANSFER = FormField(FixedFeeForm,
                                     label(Product.GLOBAL_FUND_TRANSFER, Kind.PRODUCT))
    INTERNATIONAL_CARDS_AND_ALT_PAYS = FieldList(
        FormField(NetworkFeeForm), label(Product.INTERNATIONAL_CARDS_AND_ALT_PAYS, Kind.PRODUCT),
        min_entries=len(CardNetwork),
        default=[{"cardNetwork": network.value} for network in CardNetwork])
    DOMESTIC_CARDS_UPI_AND_INB = FormField(DomesticFeeForm,
                                           label(Product.DOMESTIC_CARDS_UPI_AND_INB, Kind.PRODUCT))
