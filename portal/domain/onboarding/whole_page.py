"""Every mistake of a step at once: each field's own rules and the rules across fields together.

The request shapes run the cross-field rules (the owners' total, fee percentages, the
addresses) only once every field passed, so a page would show its mistakes in rounds: a PAN
first, the owners' 115 % only after the PAN was fixed. Here, when fields fail, the same
cross-field rules also run over what could be read of the body, and both are shown together.
"""

from __future__ import annotations

from decimal import Decimal
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, RootModel, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo

from portal.gateway.shapes import FieldError, cross_field_errors, validate_payload

#: What a field that could not be read at all counts as for the cross-field rules: an
#: unreadable percentage adds nothing to the owners' total, as the page's running total says.
_UNREAD: dict[Any, Any] = {Decimal: Decimal(0), str: "", list: []}


def check_all(shape: Any, body: Any) -> tuple[Any, list[FieldError]]:
    """Validate ``body`` as the gateway does (``(value, [])`` when it passes); when fields
    fail, their errors come with the cross-field errors of what the rest of the body says."""
    value, errors = validate_payload(shape, body, each_field=True)
    if not errors:
        return value, errors
    failed = {error.field for error in errors}
    more = [error for error in _cross_errors(shape, body)
            if error not in errors and not _within(error.field, failed)]
    return None, [*errors, *more]


def _within(path: str, failed: set[str]) -> bool:
    """Whether ``path`` is a field already in error, or inside one (its own error says more)."""
    return any(path == f or path.startswith((f"{f}.", f"{f}[")) for f in failed)


def _cross_errors(shape: Any, body: Any) -> list[FieldError]:
    """The shape's cross-field errors over the readable part of ``body``."""
    try:
        return cross_field_errors(readable(shape, body))
    except (TypeError, AttributeError, ValueError):
        return []  # a rule that cannot judge what is half typed speaks at the next send


def readable(annotation: Any, data: Any) -> Any:
    """``data`` as the shape ``annotation`` would hold it, built without validating: each
    field that passes its rules as validated, else as its plain type reads it (a 5 % owner
    is still 5), else as nothing (see ``_UNREAD``)."""
    kind = _plain(annotation)
    if isinstance(kind, type) and issubclass(kind, RootModel):
        return kind.model_construct(readable(kind.model_fields["root"].rebuild_annotation(),
                                             data))
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        given = data if isinstance(data, dict) else {}
        return kind.model_construct(**{name: _field(info, name, given)
                                       for name, info in kind.model_fields.items()})
    if get_origin(kind) is list:
        item = get_args(kind)[0] if get_args(kind) else Any
        return [readable(item, entry) for entry in data] if isinstance(data, list) else []
    return _leaf(annotation, kind, data)


def _field(info: FieldInfo, name: str, given: dict[str, Any]) -> Any:
    """One field of a model being read: its default when absent and optional."""
    if name not in given and not info.is_required():
        return info.get_default(call_default_factory=True)
    return readable(info.rebuild_annotation(), given.get(name))


def _leaf(annotation: Any, kind: Any, data: Any) -> Any:
    """A single value: validated by its full rules, else by its plain type, else unread."""
    for candidate in (annotation, kind):
        try:
            return TypeAdapter(candidate).validate_python(data)
        except (ValidationError, TypeError):
            continue
    return _UNREAD.get(kind)


def _plain(annotation: Any) -> Any:
    """The type under ``Annotated[...]`` constraints and an optional ``| None``."""
    while True:
        if get_origin(annotation) is Annotated:
            annotation = get_args(annotation)[0]
        elif get_origin(annotation) in (Union, UnionType):
            kept = [arg for arg in get_args(annotation) if arg is not type(None)]
            if len(kept) != 1:
                return annotation
            annotation = kept[0]
        else:
            return annotation
