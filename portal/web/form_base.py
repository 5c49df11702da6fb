"""The base of every form of the portal: what every typed value obeys, whatever the form.

A value holding a control character (``portal.core.typed_text``: a NUL, an escape...) is refused
with a message beside its field, in every field of the form and of its nested forms and rows,
so nothing of it reaches the database (PostgreSQL cannot store a NUL) or the gateway. A value
of an ``<input>`` (a name, a subject: one line in every browser) holding a line break is
refused too, so no name reaches an email's header on two lines.
``tests/web/test_forms.py`` checks that every form of the portal derives from ``PortalForm``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask_wtf import FlaskForm
from wtforms import Field, FieldList, Form, FormField, SelectMultipleField
from wtforms.widgets import CheckboxInput, Input, ListWidget

from portal.core.typed_text import typed_problem


class MultiCheckboxField(SelectMultipleField):
    """A multiple choice shown as checkboxes."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class PortalForm(FlaskForm):
    """A Flask-WTF form whose typed values are checked for control characters (and line
    breaks, in one-line fields)."""

    def validate(self, extra_validators: Any = None) -> bool:
        """The fields' own checks, then no control character in any typed value and no line
        break in a one-line one."""
        valid = super().validate(extra_validators)
        return refuse_control_characters(self) and valid


def typed_fields(form: Form) -> Iterator[Field]:
    """Every field holding typed text, in the form and in its nested forms and rows."""
    for field in form:
        if isinstance(field, FormField):
            yield from typed_fields(field.form)
        elif isinstance(field, FieldList):
            for entry in field.entries:
                yield from (typed_fields(entry.form) if isinstance(entry, FormField)
                            else [entry])
        elif isinstance(field.data, str):
            yield field


def refuse_control_characters(form: Form) -> bool:
    """Put the refusal beside each field whose value holds a control character, or a line
    break in a field typed on one line (an ``<input>``, not a ``<textarea>``); False if any
    did."""
    clean = True
    for field in typed_fields(form):
        problem = typed_problem(field.data, single_line=isinstance(field.widget, Input))
        if problem:
            field.errors = [problem, *field.errors]
            clean = False
    return clean
