"""Shapes common to both gateway APIs: the envelope, error details, and request validation.

The client reads answers with them; the sandbox builds its answers on them
(``portal.sandbox.common.envelopes``).

A request model validates with :func:`validate_payload`, which turns pydantic's error
locations into the gateway's dotted field paths (``contact.email``, ``[1].pan``).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import UnionType
from typing import Annotated, Any, Self, Union, get_args, get_origin

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    RootModel,
    TypeAdapter,
    ValidationError,
)

from portal.gateway import rules


class RequestModel(BaseModel):
    """A request body: unknown fields are refused, as the gateway does."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    def cross_field_errors(self) -> list[FieldError]:
        """Errors that involve more than one field; none by default."""
        return []


class ResponseModel(BaseModel):
    """A response body: unknown fields are kept, so a gateway that adds fields still parses.

    A body parsed from a gateway answer carries that answer's gid (``answer_gid``), as
    stripe's objects carry the request id of the response they came in.
    """

    model_config = ConfigDict(extra="allow")
    _answer_gid: str = PrivateAttr(default="")

    @classmethod
    def from_answer(cls, data: Any, gid: str) -> Self:
        """Parse ``data`` and keep the gid of the answer it came in."""
        parsed = cls.model_validate(data)
        parsed._answer_gid = gid
        return parsed

    @property
    def answer_gid(self) -> str:
        """The gid of the gateway answer this body came in ('' when not parsed from one)."""
        return self._answer_gid


@dataclass(frozen=True)
class FieldError:
    """One ``errorDetails`` entry: the dotted path of the field and what is wrong with it."""

    field: str
    message: str

    def as_json(self) -> dict[str, str]:
        """The entry as the gateway writes it."""
        return {"field": self.field, "message": self.message}


class ErrorDetail(ResponseModel):
    """An ``errorDetails`` entry as received; the gateway spells the key two ways."""

    field: str | None = None
    fieldName: str | None = None
    message: str = ""

    @property
    def path(self) -> str:
        """The field path, whichever key carried it."""
        return self.field or self.fieldName or ""


class Envelope(ResponseModel):
    """The response envelope of every gateway operation."""

    gid: str = ""
    timestamp: str = ""
    reasonCode: str = ""
    message: str | None = None
    status: str | None = None
    #: The docs' refund answer's own result code (``GC000``: success).
    code: str | None = None
    data: Any = None
    errors: Any = None
    errorDetails: list[ErrorDetail] = Field(default_factory=list)


class ErrorMessages(ResponseModel):
    """``errors`` of a refused call, as the real gateway sends it (PHP SDK, Magento)."""

    displayMessage: str = ""
    detailedMessage: str = ""


def display_message(errors: Any) -> str:
    """``errors.displayMessage`` of an answer, or "" when it has none."""
    if not isinstance(errors, dict):
        return ""
    try:
        return ErrorMessages.model_validate(errors).displayMessage
    except ValidationError:
        return ""


def field_path(loc: tuple[int | str, ...]) -> str:
    """Turn a pydantic error location into a gateway field path: ``(1, 'pan')`` -> ``[1].pan``."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part in ("root", "__root__"):
            continue
        else:
            path += f".{part}" if path else str(part)
    return path


#: Messages of pydantic's error types, in words a person uses; ``{...}`` come from its context.
_MESSAGES = {
    "missing": "This field is required",
    "extra_forbidden": "Unknown field",
    "string_too_long": "At most {max_length} characters",
    "too_long": "At most {max_length} entries",
    "greater_than_equal": "Must be greater than or equal to {ge}",
    "greater_than": "Must be greater than {gt}",
    "less_than_equal": "Must be less than or equal to {le}",
    "less_than": "Must be less than {lt}",
    "decimal_max_places": "At most {decimal_places} decimals",
    "decimal_max_digits": "At most {max_digits} digits in all",
    "decimal_whole_digits": "At most {whole_digits} digits before the decimal point",
    "decimal_parsing": "A decimal number, e.g. 51.5",
    "decimal_type": "A decimal number, e.g. 51.5",
    "float_parsing": "A decimal number, e.g. 51.5",
    "int_parsing": "A whole number, e.g. 50000",
    "enum": "Must be {expected}",
    "literal_error": "Must be {expected}",
    "bool_parsing": "Yes or no",
    "bool_type": "Yes or no",
    "string_type": "Text (a string) is expected here",
    "model_type": "Fill in this group",
    "dict_type": "Fill in this group",
    "list_type": "A list is expected here",
}
#: The message of an error type not listed (never pydantic's own words).
_UNLISTED = "This value is not in the expected form"


def _message(error: dict[str, Any]) -> str:
    """What a pydantic error means, in words naming what is expected."""
    kind, context = error["type"], error.get("ctx") or {}
    if kind == "value_error":  # our own rules (portal.gateway.rules) wrote it for people
        return str(error["msg"]).removeprefix("Value error, ")
    if kind.startswith("url_"):
        return rules.URL_MESSAGE
    if kind == "string_pattern_mismatch":
        return rules.PATTERN_MESSAGES.get(str(context.get("pattern")), _UNLISTED)
    if kind in ("string_too_short", "too_short"):
        least = int(context.get("min_length", 1))
        if kind == "string_too_short":
            return "This field is required" if least <= 1 else f"At least {least} characters"
        return "Choose or add at least one" if least <= 1 else f"At least {least} entries"
    try:
        return _MESSAGES[kind].format(**context)
    except (KeyError, IndexError):
        return _UNLISTED


def errors_from(exc: ValidationError, shape: Any = None) -> list[FieldError]:
    """Convert a pydantic ValidationError into one FieldError per offending field; given the
    ``shape``, a group missing whole gets one per required field in it instead (for forms,
    where the group is a set of fields a person fills in)."""
    seen: dict[str, FieldError] = {}
    for error in exc.errors(include_url=False):
        loc = tuple(error["loc"])
        group = _model_at(shape, loc) if error["type"] == "missing" else None
        for inner in (_required_paths(group) if group is not None else []) or [()]:
            # union/tagged errors repeat the same path; the first message is the useful one
            path = field_path(loc + inner)
            seen.setdefault(path, FieldError(path, _message(error)))
    return list(seen.values())


def _model_at(shape: Any, loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    """The model (a group of fields) that ``shape`` expects at ``loc``, if it is one."""
    current = _unwrapped(shape)
    for part in loc:
        if isinstance(current, type) and issubclass(current, RootModel):
            current = _unwrapped(current.model_fields["root"].annotation)
        if isinstance(part, int):
            items = get_args(current) if get_origin(current) is list else ()
            current = _unwrapped(items[0]) if items else None
        elif isinstance(current, type) and issubclass(current, BaseModel) \
                and part in current.model_fields:
            current = _unwrapped(current.model_fields[part].annotation)
        else:
            return None
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _unwrapped(annotation: Any) -> Any:
    """``X`` from ``Annotated[X, ...]`` and ``X | None``."""
    if get_origin(annotation) is Annotated:
        return _unwrapped(get_args(annotation)[0])
    if get_origin(annotation) in (Union, UnionType):
        kept = [arg for arg in get_args(annotation) if arg is not type(None)]
        return _unwrapped(kept[0]) if len(kept) == 1 else annotation
    return annotation


def _required_paths(model: type[BaseModel]) -> list[tuple[str, ...]]:
    """The paths of every required field of ``model``, nested groups followed."""
    paths: list[tuple[str, ...]] = []
    for name, info in model.model_fields.items():
        if info.is_required():
            inner = _unwrapped(info.annotation)
            nested = isinstance(inner, type) and issubclass(inner, BaseModel) \
                and not issubclass(inner, RootModel)
            paths += [(name, *rest) for rest in _required_paths(inner)] if nested \
                else [(name,)]
    return paths


def validate_payload(shape: Any, payload: Any,
                     each_field: bool = False) -> tuple[Any, list[FieldError]]:
    """Validate a decoded JSON payload against a request shape.

    Returns ``(value, [])`` when valid and ``(None, errors)`` otherwise. ``shape`` is a
    RequestModel subclass or any type pydantic understands (such as ``list[Owner]``).
    ``each_field``: a missing group is reported on each of its required fields (forms and
    files people fill in), not as one error on the group (the API's way).
    """
    adapter = TypeAdapter(shape)
    try:
        value = adapter.validate_python(payload, strict=False)
    except ValidationError as exc:
        return None, errors_from(exc, shape if each_field else None)
    errors = cross_field_errors(value)
    return (None, errors) if errors else (value, [])


def cross_field_errors(value: Any) -> list[FieldError]:
    """Collect the cross-field errors of a shape that defines them."""
    check = getattr(value, "cross_field_errors", None)
    return check() if callable(check) else []


def dump(value: Any) -> Any:
    """Serialise a shape (or a list of shapes) to plain JSON types, leaving out unset fields."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_none=True, by_alias=True)
    if isinstance(value, list):
        return [dump(v) for v in value]
    return value


# Annotated string types shared by both APIs' request shapes.
NonEmpty = Annotated[str, Field(min_length=1, max_length=200)]
Email = Annotated[str, Field(max_length=254), AfterValidator(rules.check_email)]
Phone = Annotated[str, Field(max_length=20), AfterValidator(rules.check_phone)]
CallingCode = Annotated[str, AfterValidator(rules.check_calling_code)]
NationalPhone = Annotated[str, AfterValidator(rules.check_national_phone)]
Pan = Annotated[str, AfterValidator(rules.check_pan)]
IndividualPan = Annotated[str, AfterValidator(rules.check_individual_pan)]
Gstin = Annotated[str, AfterValidator(rules.check_gstin)]
Ifsc = Annotated[str, AfterValidator(rules.check_ifsc)]
