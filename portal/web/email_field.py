"""An email address field as every form of the portal asks it: trimmed, required, at most 254
characters, its syntax checked (no DNS look-up), each refusal in words beside the field."""

from __future__ import annotations

from wtforms import EmailField, Field
from wtforms.validators import DataRequired, Length, ValidationError

from portal.gateway.rules import check_email


def stripped(value: str | None) -> str | None:
    """``value`` without the spaces around it (a WTForms filter)."""
    return value.strip() if value else value


def _email_syntax(_form: object, field: Field) -> None:
    try:
        field.data = check_email(field.data or "")
    except ValueError as exc:
        raise ValidationError("Enter an email address like name@example.com.") from exc


def email_field(label: str) -> EmailField:
    """A required email address field labelled ``label``; its data is the normalised address."""
    return EmailField(label, filters=[stripped], validators=[
        DataRequired("Enter an email address."),
        Length(max=254, message="An email address has at most 254 characters."), _email_syntax],
        render_kw={"autocomplete": "email"})
