"""The sign-in and change-password forms."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import EmailField, PasswordField, SubmitField
from wtforms.validators import DataRequired, EqualTo, Length


class LoginForm(FlaskForm):
    """Email and password."""

    email = EmailField("Email", validators=[DataRequired(), Length(max=254)],
                       render_kw={"autocomplete": "username"})
    password = PasswordField("Password", validators=[DataRequired(), Length(max=1024)],
                             render_kw={"autocomplete": "current-password"})
    submit = SubmitField("Sign in")



class PasswordChangeForm(FlaskForm):
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
