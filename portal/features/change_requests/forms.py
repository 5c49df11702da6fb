"""The forms of change requests: the new values of a section (one field per section field,
checked with the gateway's own rules where it has one), the proof and why; the support's
answer."""

from __future__ import annotations

from collections.abc import Callable

from flask_wtf.file import FileField
from wtforms import Field, RadioField, SelectChoice, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, ValidationError

from portal.domain.change_requests.sections import Section
from portal.domain.change_requests.service import TEXT_MAX
from portal.gateway.rules import check_email, check_ifsc, check_pan, check_phone
from portal.web.email_field import stripped
from portal.web.form_base import PortalForm

#: The gateway's rule of each field that has one, by the field's path.
RULES: dict[str, Callable[[str], str]] = {
    "bankIfscCode": check_ifsc, "authSignatoryPan": check_pan, "contact.email": check_email,
    "contact.phone": check_phone,
}


def field_name(path: str) -> str:
    """A section field's form name (its payload path, dots as double underscores)."""
    return path.replace(".", "__")


def _by_rule(rule: Callable[[str], str]) -> Callable[[object, Field], None]:
    def check(_form: object, field: Field) -> None:
        if field.data:
            try:
                field.data = rule(field.data)
            except ValueError as exc:
                raise ValidationError(str(exc)) from exc
    return check


class ChangeForm(PortalForm):
    """Why the change is needed, and its proof (the section's fields are added per section)."""

    reason = TextAreaField("Why the change is needed", filters=[stripped], validators=[
        DataRequired("Say why the change is needed: the approver and the gateway's support "
                     "read it."),
        Length(max=TEXT_MAX, message=f"Keep it under {TEXT_MAX} characters.")],
        render_kw={"rows": 3})
    proof = FileField("Proof")

    def new_values(self, section: Section) -> dict[str, str]:
        """The new values typed, by payload path."""
        return {f.path: self[field_name(f.path)].data or "" for f in section.fields}


def change_form(section: Section, **kwargs: object) -> ChangeForm:
    """The form of a change of ``section``, its fields pre-filled from ``data`` when given."""

    class SectionChangeForm(ChangeForm):
        pass

    for f in section.fields:
        rule = RULES.get(f.path)
        setattr(SectionChangeForm, field_name(f.path), StringField(
            f"New {_lowered(f.label)}", filters=[stripped],
            validators=[Length(max=200, message="Keep it under 200 characters."),
                        *([_by_rule(rule)] if rule else [])]))
    return SectionChangeForm(**kwargs)


def _lowered(label: str) -> str:
    """A label inside a sentence: its first letter lower-cased, unless it is an acronym (IFSC)."""
    return label if label[1:2].isupper() else label[:1].lower() + label[1:]


class AnswerForm(PortalForm):
    """What the gateway's support answered."""

    outcome = RadioField("What the support did", choices=[
        SelectChoice("reset", "Reset the record: the section can be sent again with the change"),
        SelectChoice("refused", "Refused the change")],
        validators=[DataRequired("Choose what the support did.")])
    answer = TextAreaField("Their answer, in a sentence or two", filters=[stripped], validators=[
        DataRequired("Write what the gateway's support answered."),
        Length(max=TEXT_MAX, message=f"Keep it under {TEXT_MAX} characters.")],
        render_kw={"rows": 3})
