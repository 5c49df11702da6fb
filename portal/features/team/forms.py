"""The team's forms: a new member, a role change (and the reason for a new administrator), a
forgotten password, a new password."""

from __future__ import annotations

from wtforms import (
    BooleanField,
    HiddenField,
    PasswordField,
    SelectChoice,
    SelectField,
    SubmitField,
    TextAreaField,
)
from wtforms.validators import DataRequired, EqualTo, Length

from portal.domain.four_eyes.requests import REASON_MAX
from portal.domain.users.passwords import MIN_LENGTH
from portal.features.team.service import ROLE_LABELS
from portal.web.email_field import email_field, stripped
from portal.web.form_base import PortalForm

ROLE_CHOICES = [SelectChoice(value, label) for value, label in ROLE_LABELS.items()]


def _reason_field(label: str) -> TextAreaField:
    return TextAreaField(label, filters=[stripped], validators=[
        Length(max=REASON_MAX, message=f"Keep the reason under {REASON_MAX} characters.")],
        render_kw={"rows": 2, "maxlength": REASON_MAX})


class NewMemberForm(PortalForm):
    """Who to add, with which role, and whether to email them an invitation."""

    email = email_field("Email")
    role = SelectField("Role", choices=ROLE_CHOICES, default="ops",
                       validators=[DataRequired("Choose a role.")])
    invite = BooleanField("Email them a link to choose their own password (valid 3 days)",
                          default=True)
    reason = _reason_field("Why they need to be an administrator")
    submit = SubmitField("Add to the team")


class RoleForm(PortalForm):
    """A member's new role."""

    role = SelectField("Role", choices=ROLE_CHOICES, validators=[DataRequired("Choose a role.")])
    submit = SubmitField("Change role")


class PromotionForm(PortalForm):
    """Why an operations user should become an administrator (another admin, or the holder of
    the confirmation address, reads it)."""

    reason = _reason_field("Why they need to be an administrator")
    submit = SubmitField("Ask for approval")


class ForgotPasswordForm(PortalForm):
    """The email of the account whose password was forgotten."""

    email = email_field("Email")
    submit = SubmitField("Email me a reset link")


class NewPasswordForm(PortalForm):
    """A new password, typed twice."""

    password = PasswordField("New password", validators=[
        DataRequired("Choose a password."),
        Length(min=MIN_LENGTH, max=1024,
               message=f"Passwords need at least {MIN_LENGTH} characters.")],
        render_kw={"autocomplete": "new-password"})
    confirm_password = PasswordField("New password again", validators=[
        DataRequired("Type the password a second time."),
        EqualTo("password", "The two passwords differ.")],
        render_kw={"autocomplete": "new-password"})
    submit = SubmitField("Save my password")


class ConfirmForm(PortalForm):
    """The confirmation page's button: a change that takes effect only once confirmed."""

    #: "yes" from the page's button (rendered with that value); missing from a bare post.
    confirmed = HiddenField()
