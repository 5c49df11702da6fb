"""Who the list of what a merchant will need goes to, and in which language."""

from __future__ import annotations

from wtforms import SelectChoice, SelectField, StringField, SubmitField
from wtforms.validators import Length

from portal.core.languages import DEFAULT, LANGUAGES
from portal.web.email_field import email_field, stripped
from portal.web.form_base import PortalForm

#: The longest name or business name the greeting takes.
NAME_MAX = 120


def _name_field(label: str) -> StringField:
    return StringField(label, filters=[stripped], validators=[
        Length(max=NAME_MAX, message=f"Keep it under {NAME_MAX} characters.")])


class NeedsEmailForm(PortalForm):
    """The merchant's address, how to greet them, and the email's language."""

    email = email_field("The merchant's email address")
    name = _name_field("Their name (optional)")
    business = _name_field("The business's name (optional)")
    language = SelectField("Language of the email", default=DEFAULT, choices=[
        SelectChoice(language.code, f"{language.own_name} ({language.english_name})"
                     if language.own_name != language.english_name else language.own_name)
        for language in LANGUAGES])
    submit = SubmitField("Email the list")
