"""Shapes common to both gateway APIs: the envelope, error details, and request validation.

A request model validates with :func:`validate_payload`, which turns pydantic's error
locations into the gateway's dotted field paths (``contact.email``, ``[1].pan``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from portal.gateway import rules

TIMESTAMP_FORMAT = "%d/%m/%Y %H:%M:%S"


class RequestModel(BaseModel):
    """A request body: unknown fields are refused, as the gateway does."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    def cross_field_errors(self) -> list[FieldError]:
        """Errors that involve more than one field; none by default."""
        return []


class ResponseModel(BaseModel):
    """A response body: unknown fields are kept, so a gateway that adds fields still parses."""

    model_config = ConfigDict(extra="allow")


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
    data: Any = None
    errors: Any = None
    errorDetails: list[ErrorDetail] = Field(default_factory=list)


def new_gid(prefix: str = "gl-") -> str:
    """A fresh envelope identifier."""
    return prefix + secrets.token_hex(12)


def envelope(
    data: Any,
    *,
    now: datetime,
    reason_code: str = "",
    gid: str | None = None,
    errors: list[FieldError] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Build the JSON envelope the gateway answers with."""
    body: dict[str, Any] = {
        "gid": gid or new_gid(),
        "timestamp": now.strftime(TIMESTAMP_FORMAT),
        "reasonCode": reason_code,
        **extra,
        "data": data if data is not None else {},
        "errors": None,
    }
    if errors is not None:
        body["errorDetails"] = [e.as_json() for e in errors]
        body["errors"] = {"count": len(errors)}
    return body


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


def _message(error: dict[str, Any]) -> str:
    if error["type"] == "missing":
        return "This field is required"
    if error["type"] == "extra_forbidden":
        return "Unknown field"
    message = str(error["msg"])
    return message.removeprefix("Value error, ")


def errors_from(exc: ValidationError) -> list[FieldError]:
    """Convert a pydantic ValidationError into one FieldError per offending field."""
    seen: dict[str, FieldError] = {}
    for error in exc.errors(include_url=False):
        loc = tuple(error["loc"])
        # union/tagged errors repeat the same path; the first message is the useful one
        path = field_path(loc)
        seen.setdefault(path, FieldError(path, _message(error)))
    return list(seen.values())


def validate_payload(shape: Any, payload: Any) -> tuple[Any, list[FieldError]]:
    """Validate a decoded JSON payload against a request shape.

    Returns ``(value, [])`` when valid and ``(None, errors)`` otherwise. ``shape`` is a
    RequestModel subclass or any type pydantic understands (such as ``list[Owner]``).
    """
    adapter = TypeAdapter(shape)
    try:
        value = adapter.validate_python(payload, strict=False)
    except ValidationError as exc:
        return None, errors_from(exc)
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
Pan = Annotated[str, AfterValidator(rules.check_pan)]
IndividualPan = Annotated[str, AfterValidator(rules.check_individual_pan)]
Gstin = Annotated[str, AfterValidator(rules.check_gstin)]
Ifsc = Annotated[str, AfterValidator(rules.check_ifsc)]
