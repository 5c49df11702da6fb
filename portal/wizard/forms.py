"""The wizard's forms, one per step, named after the gateway's JSON fields.

Field names mirror the request shapes (``contact`` -> ``email`` renders as ``contact-email``),
so a form's data is the step's payload and a gateway error path names its field. The forms
only carry data: every rule is checked by the shared shapes when the step is sent.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from decimal import Decimal, InvalidOperation
from typing import Any

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    FieldList,
    Form,
    FormField,
    HiddenField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.widgets import CheckboxInput, ListWidget

from portal.gateway import rules
from portal.gateway.onboarding_shapes import (
    AccountType,
    CardNetwork,
    EntityType,
    FeeType,
    Product,
)
from portal.gateway.shapes import FieldError

#: Examples shown under every field with a format, by field name.
EXAMPLES = {
    "externalOnboardingId": "pop-3f2a9c0d",
    "panNumber": "ABCCE1234F (company) or ABCPE1234F (person)",
    "pan": rules.PAN_EXAMPLE,
    "authSignatoryPan": rules.PAN_EXAMPLE,
    "gstNumber": rules.GSTIN_EXAMPLE,
    "bankIfscCode": rules.IFSC_EXAMPLE,
    "bankAccountNumber": "1234567890",
    "phone": rules.PHONE_EXAMPLE,
    "email": "owner@merchant.example",
    "zipcode": "400001",
    "stateCode": "MH",
    "purposeCode": "P0802",
    "websiteUrl": "https://merchant.example",
    "iec": "0123456789",
    "amount": "50000",
    "percentageOwnership": "51.5",
}
_PLEASE_CHOOSE = SelectChoice("", "Choose…")


def _label(value: str) -> str:
    return value.replace("_", " ").capitalize()


def _choices(values: Iterable[str]) -> list[SelectChoice]:
    return [_PLEASE_CHOOSE, *(SelectChoice(v, _label(v)) for v in values)]


def _text(label: str, help_text: str = "") -> StringField:
    return StringField(label, description=help_text)


def _select(label: str, values: Iterable[str], help_text: str = "") -> SelectField:
    return SelectField(label, choices=_choices(values), validate_choice=False,
                       description=help_text)


class MultiCheckboxField(SelectMultipleField):
    """A multiple choice shown as checkboxes."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


# ---------------------------------------------------------------- nested parts


class AddressForm(Form):
    """A registered or operating address."""

    streetAddress1 = _text("Street address, line 1")
    streetAddress2 = _text("Street address, line 2")
    zipcode = _text("PIN code", "Six digits, not starting with 0.")
    city = _text("City")
    state = _text("State")
    stateCode = _text("State code", "Two capital letters.")


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

    amount = _text("Amount", "A whole number, no separators.")
    currency = SelectField("Currency", choices=[SelectChoice("USD")], default="USD",
                           validate_choice=False)


class OwnerForm(Form):
    """One beneficial owner row."""

    designation = _text("Designation")
    name = _text("Full name")
    pan = _text("PAN", "A person's PAN: the 4th letter is P.")
    percentageOwnership = _text("Ownership %", "10 to 100, up to two decimals.")


class ContactForm(Form):
    """The signatory's contact."""

    phone = _text("Phone", "International format with the calling code.")
    email = _text("Email")


class FixedFeeForm(Form):
    """GLOBAL_FUND_TRANSFER's fee."""

    feeType = _select("Fee type", FeeType)
    fee = _text("Fee", "Up to two decimals; a percentage is at most 100.")


class NetworkFeeForm(Form):
    """One card network's fee."""

    cardNetwork = HiddenField()
    feeType = _select("Fee type", FeeType)
    fee = _text("Fee", "Up to two decimals; a percentage is at most 100.")


class DomesticFeeForm(Form):
    """DOMESTIC_CARDS_UPI_AND_INB's fee rate."""

    feeType = _select("Fee type", FeeType)
    feeRate = _text("Fee rate", "Up to two decimals.")


class ProductFeesForm(Form):
    """Fees keyed by product."""

    GLOBAL_FUND_TRANSFER = FormField(FixedFeeForm, "Global fund transfer")
    INTERNATIONAL_CARDS_AND_ALT_PAYS = FieldList(
        FormField(NetworkFeeForm), "International cards and alternative payments",
        min_entries=len(CardNetwork),
        default=[{"cardNetwork": network.value} for network in CardNetwork])
    DOMESTIC_CARDS_UPI_AND_INB = FormField(DomesticFeeForm, "Domestic cards, UPI and net banking")


# ---------------------------------------------------------------- step forms


def form_path(path: str, root: str | None = None) -> list[str]:
    """A gateway field path as form field names: ``[1].pan`` -> ``owners, 1, pan``."""
    parts = [part for part in re.split(r"[.\[\]]+", path) if part]
    return [root, *parts] if root and parts else parts


class VersionField(HiddenField):
    """The version of the stored draft the form was loaded at (checked when it is saved)."""


#: Form fields that are not step data.
_NOT_DATA = frozenset({"csrf_token", "draft_version"})


class StepForm(FlaskForm):
    """Common machinery: the payload, and errors placed next to the field they name."""

    draft_version = VersionField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.top_errors: list[str] = []
        self.nested_errors: dict[str, list[str]] = {}

    def payload(self) -> dict[str, Any]:
        """The form's data as stored in the draft (no CSRF token, no version)."""
        return {key: value for key, value in self.data.items() if key not in _NOT_DATA}

    def loaded_version(self) -> int | None:
        """The draft version the form was loaded at; None when the post did not say."""
        value = str(self.draft_version.data or "")
        return int(value) if value.isdigit() else None

    def show_errors(self, errors: Iterable[FieldError], root: str | None = None) -> None:
        """Put each error beside its field; a list or group gets it at its top, else the page."""
        for error in errors:
            target = self._locate(form_path(error.field, root))
            if target is None:
                self.top_errors.append(error.message)
            elif isinstance(target, FormField | FieldList):
                self.nested_errors.setdefault(target.name, []).append(error.message)
            else:
                target.errors = [*target.errors, error.message]

    def _locate(self, parts: list[str]) -> Field | None:
        """The deepest field the path reaches (None when not even its first part matches)."""
        found: Field | None = None
        container: Any = self
        for part in parts:
            if isinstance(container, FieldList):
                if not part.isdigit() or int(part) >= len(container.entries):
                    break
                field = container.entries[int(part)]
            elif isinstance(container, Form | FlaskForm) and part in container:
                field = container[part]
            else:
                break
            found = field
            container = field.form if isinstance(field, FormField) else field
        return found

    def row_action(self, action: str) -> bool:
        """Handle an add/remove row button; steps without rows have none."""
        return False

    def prepare(self, categories: Callable[[], dict[str, list[tuple[str, str]]]]) -> None:
        """Fill choices that come from the gateway; only business details has any."""


class CreateForm(StepForm):
    """Step 1: the record's identity."""

    displayName = _text("Merchant name", "For the portal only; not sent to the gateway.")
    externalOnboardingId = _text(
        "External onboarding id",
        "Your id for this merchant: 1 to 64 letters, digits, '_' or '-'. It can never be "
        "reused, not even after a rejection.")
    panNumber = _text("Business PAN", "The 4th letter is the holder type: P, C, T or F.")


class BusinessForm(StepForm):
    """Step 2: business details."""

    entityType = _select("Entity type", EntityType)
    natureOfBusiness = SelectField("Nature of business", validate_choice=False,
                                   description="A subcategory of the gateway's list.")
    registeredName = _text("Registered name", "Optional. The name on the registration "
                           "certificate, when it differs from the trade name.")
    tradeName = _text("Trade name", "Optional.")
    gstNumber = _text("GSTIN", "Optional. 15 characters including a check digit.")
    iec = _text("Import export code", "Optional. 10 letters or digits.")
    websiteUrl = _text("Website")
    purposeCode = _text("Purpose code", "P followed by four digits.")
    expectedMonthlyVolume = FormField(VolumeForm, "Expected monthly volume")
    address = FormField(AddressesForm, "Addresses")
    noPartnershipRegistrationCheck = BooleanField(
        "Partnership without a registration certificate (skips that document)")

    def prepare(self, categories: Callable[[], dict[str, list[tuple[str, str]]]]) -> None:
        """natureOfBusiness offers the gateway's subcategories, grouped by category."""
        choices = [_PLEASE_CHOOSE, *(SelectChoice(code, name, optgroup=group)
                                     for group, items in categories().items()
                                     for code, name in items)]
        current = self.natureOfBusiness.data
        if current and current not in {choice.value for choice in choices}:
            choices.append(SelectChoice(current, current, optgroup="Currently chosen"))
        self.natureOfBusiness.choices = choices


class OwnersForm(StepForm):
    """Step 3: every beneficial owner, sent together."""

    owners = FieldList(FormField(OwnerForm), "Beneficial owners", min_entries=1)

    def row_action(self, action: str) -> bool:
        """'add_owner' appends an empty row, 'remove_owner:N' drops row N; typing is kept."""
        rows = list(self.owners.data)
        if action == "add_owner":
            rows.append({})
        elif action.startswith("remove_owner:") and action.split(":", 1)[1].isdigit():
            index = int(action.split(":", 1)[1])
            rows = rows[:index] + rows[index + 1:]
        else:
            return False
        self.owners.process(None, rows)
        return True

    @property
    def total(self) -> Decimal:
        """The running total of the percentages typed so far (unreadable ones count 0)."""
        total = Decimal(0)
        for row in self.owners.data:
            try:
                total += Decimal(str(row.get("percentageOwnership") or "0").strip())
            except InvalidOperation:
                continue
        return total


class BankForm(StepForm):
    """Step 4: settlement account."""

    bankAccountNumber = _text("Account number", "9 to 18 digits.")
    bankIfscCode = _text("IFSC", "11 characters; the 5th is 0.")
    accountHolderName = _text("Account holder name", "Optional. As the bank knows it; the "
                              "penny drop returns the name the bank holds.")
    accountType = _select("Account type", AccountType)


class SignatoryForm(StepForm):
    """Step 5: the authorised signatory."""

    authSignatoryName = _text("Full name")
    authSignatoryPan = _text("PAN", "A person's PAN: the 4th letter is P.")
    contact = FormField(ContactForm, "Contact (used for video KYC, DigiLocker and T&C)")


class ProductsForm(StepForm):
    """Step 7: products and their fees."""

    products = MultiCheckboxField(
        "Products", validate_choice=False,
        choices=[SelectChoice(p.value, _label(p.value)) for p in Product])
    productFees = FormField(ProductFeesForm, "Fees")


class ReconcileForm(FlaskForm):
    """The onboardingId ops learned for a create whose answer was lost."""

    onboardingId = StringField("Onboarding id at the gateway")


#: The form of each step the wizard edits with a form (documents has its own).
FORMS: dict[str, type[StepForm]] = {
    "create": CreateForm,
    "business": BusinessForm,
    "owners": OwnersForm,
    "bank": BankForm,
    "signatory": SignatoryForm,
    "products": ProductsForm,
}
