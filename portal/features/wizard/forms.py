"""The wizard's forms, one per step, named after the gateway's JSON fields.

Field names mirror the request shapes (``contact`` -> ``email`` renders as ``contact-email``),
so a form's data is the step's payload and a gateway error path names its field. The forms
only carry data: every rule is checked by the shared shapes when the step is sent.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation

from wtforms import (
    BooleanField,
    FieldList,
    FormField,
    HiddenField,
    SelectChoice,
    SelectField,
    StringField,
)

from portal.core.labels import Kind, label
from portal.features.wizard.form_parts import (
    AddressesForm,
    ContactForm,
    OwnerForm,
    ProductFeesForm,
    VolumeForm,
)
from portal.gateway.onboarding.vocabulary import AccountType, EntityType, Product
from portal.web.body_forms import (
    PLEASE_CHOOSE,
    BodyForm,
    labelled_select,
    text_field,
)
from portal.web.form_base import MultiCheckboxField, PortalForm

#: The group of a chosen business category the gateway's list no longer offers.
KEPT_CHOICE = "Currently chosen"


class VersionField(HiddenField):
    """The version of the stored draft the form was loaded at (checked when it is saved)."""


class StepForm(BodyForm):
    """A step's form: a body form that remembers the draft version it was loaded at."""

    not_data = frozenset({"csrf_token", "draft_version"})
    draft_version = VersionField()

    def loaded_version(self) -> int | None:
        """The draft version the form was loaded at; None when the post did not say."""
        value = str(self.draft_version.data or "")
        return int(value) if value.isdigit() else None

    def prepare(self, categories: Callable[[], dict[str, list[tuple[str, str]]]]) -> None:
        """Fill choices that come from the gateway; only business details has any."""


class CreateForm(StepForm):
    """Step 1: the record's identity."""

    displayName = text_field("Merchant name", "For the portal only; not sent to the gateway.")
    externalOnboardingId = text_field(
        "External onboarding id",
        "Your id for this merchant: 1 to 64 letters, digits, '_' or '-'. It can never be "
        "reused, not even after a rejection.")
    panNumber = text_field("Business PAN", "The 4th letter is the holder type: P, C, T or F.")


class BusinessForm(StepForm):
    """Step 2: business details."""

    entityType = labelled_select("Entity type", EntityType, Kind.ENTITY_TYPE)
    natureOfBusiness = SelectField("Nature of business", validate_choice=False,
                                   description="A subcategory of the gateway's list.")
    registeredName = text_field("Registered name", "Optional. The name on the registration "
                                "certificate, when it differs from the trade name.")
    tradeName = text_field("Trade name", "Optional.")
    gstNumber = text_field("GSTIN", "Optional. 15 characters including a check digit.")
    iec = text_field("Import export code", "Optional. 10 letters or digits.")
    websiteUrl = text_field("Website")
    purposeCode = text_field("Purpose code", "P followed by four digits.")
    expectedMonthlyVolume = FormField(VolumeForm, "Expected monthly volume")
    address = FormField(AddressesForm, "Addresses")
    noPartnershipRegistrationCheck = BooleanField(
        "Partnership without a registration certificate (skips that document)")

    def prepare(self, categories: Callable[[], dict[str, list[tuple[str, str]]]]) -> None:
        """natureOfBusiness offers the gateway's subcategories, grouped by category."""
        choices = [PLEASE_CHOOSE, *(SelectChoice(code, name, optgroup=group)
                                    for group, items in categories().items()
                                    for code, name in items)]
        current = self.natureOfBusiness.data
        if current and current not in {choice.value for choice in choices}:
            choices.append(SelectChoice(current, current, optgroup=KEPT_CHOICE))
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

    bankAccountNumber = text_field("Account number", "9 to 18 digits.")
    bankIfscCode = text_field("IFSC", "11 characters; the 5th is 0.")
    accountHolderName = text_field("Account holder name", "Optional. As the bank knows it; "
                                   "the penny drop returns the name the bank holds.")
    accountType = labelled_select("Account type", AccountType, Kind.ACCOUNT_TYPE)


class SignatoryForm(StepForm):
    """Step 5: the authorised signatory."""

    authSignatoryName = text_field("Full name")
    authSignatoryPan = text_field("PAN", "A person's PAN: the 4th letter is P.")
    contact = FormField(ContactForm, "Contact (used for video KYC, DigiLocker and T&C)")


class ProductsForm(StepForm):
    """Step 7: products and their fees."""

    products = MultiCheckboxField(
        "Products", validate_choice=False,
        choices=[SelectChoice(p.value, label(p, Kind.PRODUCT)) for p in Product])
    productFees = FormField(ProductFeesForm, "Fees")


class ReconcileForm(PortalForm):
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
