"""Reading a JSON request body strictly: wrong Content-Type, empty or malformed bodies are a 400."""

from __future__ import annotations

import json
from typing import Any

from flask import Request

from portal.gateway.shapes import FieldError
from portal.sandbox.common.errors import validation_error

#: The errorDetails field named when the body as a whole is wrong.
BODY_FIELD = "body"


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def require_json(request: Request) -> None:
    """400 VALIDATION_ERROR on field ``body`` unless the body is declared JSON."""
    if request.mimetype != "application/json":
        raise validation_error([FieldError(BODY_FIELD, "Content-Type must be application/json")])


def read_json(request: Request) -> Any:
    """The decoded JSON body; 400 VALIDATION_ERROR on field ``body`` when there is none."""
    require_json(request)
    raw = request.get_data(cache=True)
    if not raw.strip():
        raise validation_error([FieldError(BODY_FIELD, "The request body is empty")])
    return parsed_json(raw)


def parsed_json(raw: bytes) -> Any:
    """``raw`` decoded as strict UTF-8 JSON; 400 VALIDATION_ERROR on field ``body`` if it is not."""
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise validation_error(
            [FieldError(BODY_FIELD, "The request body is not valid UTF-8 JSON")]
        ) from exc
