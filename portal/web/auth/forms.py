"""The sign-in, second-factor, enrolment and change-password forms."""

from __future__ import annotations

from wtforms import EmailField, PasswordField, StringField, SubmitField
from wtforms.validators import DataRequired, EqualTo, Length

from portal.web.form_base import PortalForm


class LoginForm(PortalForm):
    """Email and password."""

    email = EmailField("Email", validators=[DataRequired(), Length(max=254)],
                       render_kw={"autocomplete": "username"})
    password = PasswordField("Password", validators=[DataRequired(), Length(max=1024)],
                             render_kw={"autocomplete": "current-password"})
    submit = SubmitField("Sign in")


class PasswordChangeForm(PortalForm):
    """The current password and a new one, typed twice."""

    current_password = PasswordField("Current password",
                                     validators=[DataRequired(), Length(max=1024)],
                                     render_kw={"autocomplete": "current-password"})
    new_password = PasswordField("New password", validators=[DataRequired(), Length(max=1024)],
                                 render_kw={"autocomplete": "new-password"})
    confirm_password = PasswordField(
        "New password again",
        validators=[DataRequired(), EqualTo("new_password", "The two new passwords differ.")],
        render_kw={"autocomplete": "new-password"})
    submit = SubmitField("Change password")


class SecondFactorForm(PortalForm):
    """The code from the authenticator app, or a recovery code, at sign-in."""

    code = StringField("Authentication code", validators=[DataRequired(), Length(max=32)],
                       render_kw={"autocomplete": "one-time-code", "autocapitalize": "none",
                                  "spellcheck": "false"})
    submit = SubmitField("Continue")


class EnrolmentForm(PortalForm):
    """The first code the newly added authenticator app shows, which proves it works."""

    code = StringField("Code from the app", validators=[DataRequired(), Length(max=16)],
                       render_kw={"autocomplete": "one-time-code", "inputmode": "numeric"})
    submit = SubmitField("Turn on two-step sign-in")
