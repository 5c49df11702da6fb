"""The forms of change requests: the new values of a section (one field per section field,
checked with the gateway's own rules where it has one), the proof and why; the support's
answer."""

from __future__ import annotations

from collections.abc import Callable

from flask_wtf.file import FileField
from wtforms import Field, RadioField, SelectChoice, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, ValidationError

from portal.domain.change_requests.sections import Field as SectionField
from portal.domain.change_requests.sections import Section
from portal.domain.change_requests.service import TEXT_MAX
from portal.gateway.rules import check_email, check_ifsc, check_pan, check_phone
from portal.web.email_field import stripped
from portal.web.form_base import MultiCheckboxField, PortalForm

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
        """The new values typed (choices' codes comma-separated), by payload path."""
        return {f.path: _typed(self[field_name(f.path)].data) for f in section.fields}


def change_form(section: Section, **kwargs: object) -> ChangeForm:
    """The form of a change of ``section``, its fields pre-filled from ``data`` when given."""

    class SectionChangeForm(ChangeForm):
        pass

    for f in section.fields:
        setattr(SectionChangeForm, field_name(f.path), _field_of(f))
    return SectionChangeForm(**kwargs)


def _field_of(f: SectionField) -> Field:
    """The form field of a section's field: checkboxes for choices, else a line of text checked
    with the gateway's rule where it has one."""
    if f.choices:
        return MultiCheckboxField(f"New {_lowered(f.label)}", validate_choice=False,
                                  choices=[SelectChoice(code, words) for code, words in f.choices])
    rule = RULES.get(f.path)
    return StringField(f"New {_lowered(f.label)}", filters=[stripped],
                       validators=[Length(max=200, message="Keep it under 200 characters."),
                                   *([_by_rule(rule)] if rule else [])])


def form_data(section: Section, values: dict[str, str]) -> dict[str, object]:
    """A section's values as its form shows them (choices as lists of codes)."""
    return {field_name(f.path): [code for code in values.get(f.path, "").split(",") if code]
            if f.choices else values.get(f.path, "") for f in section.fields}


def _typed(data: object) -> str:
    if isinstance(data, list):
        return ",".join(str(item) for item in data)
    return str(data or "")


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
