"""Which form fields are required, read from the request shapes that validate them.

The wizard's step forms and the hold form name their fields after a request shape, so walking
both together flags each form field whose shape field has no default; the shared form macro
(templates/_forms.html) then marks it and WTForms sets ``required``. A field inside an optional
group (the operating address, a product's fees) is flagged as required within that group.
Checkboxes and hidden fields are never flagged: a checkbox that must be ticked is not what the
shapes mean by a required bool.
"""

from __future__ import annotations

from typing import Any, get_args

from pydantic import BaseModel
from wtforms import Field, FieldList, FormField

#: Field types a ``required`` attribute would misdescribe.
_NEVER_FLAGGED = frozenset({"BooleanField", "HiddenField"})


def mark_required(form: Any, shape: type[BaseModel] | None, root: str | None = None) -> None:
    """Flag the fields of ``form`` that ``shape`` requires; ``root`` names the form's list
    that holds a shape which is a bare array (the owners)."""
    if shape is None:
        return
    if root:
        _mark_rows(form[root], _model_in(shape.model_fields["root"].annotation))
    else:
        _mark(form, shape)


def _mark(container: Any, model: type[BaseModel]) -> None:
    for name, info in model.model_fields.items():
        if name not in container:
            continue
        field: Field = container[name]
        nested = _model_in(info.annotation)
        if isinstance(field, FormField) and nested is not None:
            _mark(field.form, nested)
        elif isinstance(field, FieldList):
            _mark_rows(field, nested)
        elif info.is_required() and field.type not in _NEVER_FLAGGED:
            field.flags.required = True


def _mark_rows(rows: FieldList, model: type[BaseModel] | None) -> None:
    if model is None:
        return
    for entry in rows.entries:
        if isinstance(entry, FormField):
            _mark(entry.form, model)


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The model an annotation holds, through Optional, list and Annotated; None if none."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for argument in get_args(annotation):
        found = _model_in(argument)
        if found is not None:
            return found
    return None
