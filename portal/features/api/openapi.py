"""The OpenAPI 3.1 document, generated from the operations table and the pydantic models the
API validates and answers with (``pydantic.json_schema``), so it cannot drift from the code.

Built on the project's own pydantic shapes rather than a framework (flask-smorest, spectree):
the bodies are the gateway's request shapes, already pydantic, and the table of operations is
a few lines; pydantic emits JSON Schema 2020-12, which OpenAPI 3.1 takes as it is.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from portal.core.db import MAX_ROW_ID
from portal.features.api.operations import IDEMPOTENCY_HEADER, OPERATIONS, Operation
from portal.features.api.problems import MEDIA_TYPE
from portal.features.api.schemas import ProblemDetail

PREFIX = "/api/v1"
REF = "#/components/schemas/{model}"
_PATH_VALUE = re.compile(r"<int:(\w+)>")
#: A path value of a few words: ``<any(a, b):name>``.
_PATH_WORD = re.compile(r"<any\(([^)]*)\):(\w+)>")
_EXTRA_STATUSES = {"api.create_merchant": (202,), "api.send": (202,)}


def path_of(rule: str) -> str:
    """The OpenAPI path of a Flask rule."""
    return PREFIX + _PATH_WORD.sub(r"{\2}", _PATH_VALUE.sub(r"{\1}", rule))


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": REF.format(model=model.__name__)}


def _parameters(op: Operation) -> list[dict[str, Any]]:
    found = [{"name": name, "in": "path", "required": True,
              "schema": {"type": "integer", "minimum": 1, "maximum": MAX_ROW_ID}}
             for name in _PATH_VALUE.findall(op.rule)]
    found += [{"name": name, "in": "path", "required": True,
               "schema": {"type": "string", "enum": [w.strip() for w in words.split(",")]}}
              for words, name in _PATH_WORD.findall(op.rule)]
    if op.query is not None:
        schema = op.query.model_json_schema()
        for name, prop in schema["properties"].items():
            prop = {k: v for k, v in prop.items() if k != "title"}
            found.append({"name": name, "in": "query", "required": False, "schema": prop})
    if op.method == "POST":
        found.append({"name": IDEMPOTENCY_HEADER, "in": "header", "required": False,
                      "description": "Repeat the POST with the same key within 24 hours to get "
                                     "its first answer; nothing is done again.",
                      "schema": {"type": "string", "minLength": 1, "maxLength": 255}})
    return found


def _operation(op: Operation) -> dict[str, Any]:
    answer = {"description": op.answer.__doc__ or "",
              "content": {"application/json": {"schema": _ref(op.answer)}}}
    found: dict[str, Any] = {
        "operationId": op.endpoint.removeprefix("api."), "summary": op.summary,
        "x-scope": str(op.scope), "security": [{"apiKey": []}],
        "parameters": _parameters(op),
        "responses": {str(status): answer
                      for status in (op.status, *_EXTRA_STATUSES.get(op.endpoint, ()))}
        | {"default": {"description": "A problem (RFC 9457)",
                       "content": {MEDIA_TYPE: {"schema": _ref(ProblemDetail)}}}},
    }
    if op.body is not None:
        media = "multipart/form-data" if op.files else "application/json"
        found["requestBody"] = {"required": True, "content": {media: {"schema": _ref(op.body)}}}
    return found


@cache
def document() -> dict[str, Any]:
    """The whole OpenAPI 3.1 document of /api/v1."""
    models = {ProblemDetail, *(op.answer for op in OPERATIONS),
              *(op.body for op in OPERATIONS if op.body is not None)}
    _, schemas = models_json_schema(
        [(model, "validation") for model in sorted(models, key=lambda m: m.__name__)],
        ref_template=REF)
    paths: dict[str, dict[str, Any]] = {}
    for op in OPERATIONS:
        paths.setdefault(path_of(op.rule), {})[op.method.lower()] = _operation(op)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Partner Onboarding Portal API", "version": "1",
                 "description": "Merchants and payments, with the portal's own rules and audit "
                                "trail. Errors are RFC 9457 problems whose errors name each "
                                "field at the gateway's path."},
        "paths": paths,
        "components": {"schemas": schemas.get("$defs", {}),
                       "securitySchemes": {"apiKey": {"type": "http", "scheme": "bearer"}}},
    }
