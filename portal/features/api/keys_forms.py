"""The keys page's forms: a new key (its name, scopes, expiry and, for payments, the reason a
second admin reads), and revoking one."""

from __future__ import annotations

from wtforms import DateField, SelectChoice, StringField, SubmitField, TextAreaField
from wtforms.validators import DataRequired, Length, Optional

from portal.domain.api.keys import NAME_MAX
from portal.domain.api.scopes import SCOPE_WORDS
from portal.domain.four_eyes.requests import REASON_MAX
from portal.web.form_base import MultiCheckboxField, PortalForm


class NewKeyForm(PortalForm):
    """A new API key."""

    name = StringField("Name", validators=[
        DataRequired("Give the key a name that says whose software uses it."),
        Length(max=NAME_MAX, message=f"Keep the name under {NAME_MAX} characters.")],
        render_kw={"maxlength": NAME_MAX})
    scopes = MultiCheckboxField("What it may do", choices=[
        SelectChoice(scope.value, words) for scope, words in SCOPE_WORDS.items()],
        validators=[DataRequired("Choose at least one thing the key may do.")])
    expires_on = DateField("Expires on (UTC day, optional)", validators=[Optional()])
    reason = TextAreaField("Reason (needed for payments)", validators=[
        Length(max=REASON_MAX, message=f"Keep the reason under {REASON_MAX} characters.")],
        render_kw={"rows": 2, "maxlength": REASON_MAX})
    submit = SubmitField("Create key")


class RevokeForm(PortalForm):
    """Revoke one key (the CSRF token only)."""
