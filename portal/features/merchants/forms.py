"""The merchants list's search form (a GET form: no CSRF token), the delete confirmation, the
acceptance of a website check's gap and the language of the merchant's pages."""

from __future__ import annotations

from typing import Any

from wtforms import BooleanField, HiddenField, SearchField, SelectChoice, SelectField, TextAreaField
from wtforms.validators import DataRequired, Length

from portal.core.label_tables import NOT_CREATED
from portal.core.labels import label
from portal.core.languages import LANGUAGES
from portal.features.merchants.service import MINE, NOBODY
from portal.gateway.onboarding.vocabulary import OnboardingStatus
from portal.web.form_base import PortalForm


class SearchForm(PortalForm):
    """Search by name, PAN, external id or onboarding id; filter by onboarding status and by
    owner."""

    class Meta:
        csrf = False

    q = SearchField("Search", description="Name, full PAN, external id or onboarding id.")
    status = SelectField("Onboarding status", validate_choice=False, choices=[
        SelectChoice("", "Any status"), SelectChoice(NOT_CREATED, label(NOT_CREATED)),
        *(SelectChoice(s.value, label(s)) for s in OnboardingStatus)])
    stale = BooleanField("Only merchants without progress lately")
    dormant = BooleanField("Only dormant merchants")
    owner = SelectField("Owner", validate_choice=False, choices=[
        SelectChoice("", "Anyone or nobody"), SelectChoice(MINE, "Mine"),
        SelectChoice(NOBODY, "Nobody owns it")])

    def __init__(self, *args: Any, stale_after_days: int = 7, dormant_after_days: int = 30,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stale.label.text = (f"Only those without progress for more than "
                                 f"{stale_after_days} days")
        self.dormant.label.text = (f"Only live merchants without a payment for "
                                   f"{dormant_after_days} days")


class DeleteMerchantForm(PortalForm):
    """Delete an abandoned merchant: the box confirms that its drafts and documents go too."""

    confirm = BooleanField(
        "I understand that this merchant, its drafts and its uploaded documents are deleted "
        "for good.", validators=[DataRequired(message="Tick the box to confirm the deletion.")])


#: The longest note accepting a website gap.
NOTE_MOST = 500


class AcceptGapForm(PortalForm):
    """Accept one gap the website check found, saying why."""

    gap = HiddenField(validators=[DataRequired()])
    note = TextAreaField("Why it is acceptable", validators=[
        DataRequired(message="Say why this gap is acceptable; the note is kept in the audit."),
        Length(max=NOTE_MOST, message=f"Keep the note to {NOTE_MOST} characters.")])


class LanguageForm(PortalForm):
    """Ops choose the language of the merchant's pages and emails, each named as its readers
    write it."""

    language = SelectField(
        "Language of the merchant's pages and emails",
        choices=[SelectChoice(language.code, language.own_name, render_kw={"lang": language.code})
                 for language in LANGUAGES],
        validators=[DataRequired(message="Choose one of the languages listed.")])
