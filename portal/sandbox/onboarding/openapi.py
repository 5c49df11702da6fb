"""The sandbox's reading of the onboarding API as an OpenAPI 3.1 document, built from the shapes.

Served at ``GET /openapi.json``. Request and response schemas come from the shared pydantic
models, so the document cannot drift from what the client sends and the sandbox checks.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from flask import Blueprint, Response, jsonify
from pydantic.json_schema import models_json_schema

from portal.gateway.onboarding.hmac import AUTH_HEADER, DIGEST_HEADER
from portal.gateway.onboarding.operations import OPERATIONS
from portal.gateway.operations import Operation
from portal.sandbox.onboarding.routes import CREATED

REF = "#/components/schemas/{model}"
ERROR_ENVELOPE = "ErrorEnvelope"
#: Operations that act on no record, so they never answer 403 or 404.
_NO_RECORD = frozenset({"create_onboarding", "get_business_categories"})
#: Operations on the partner's own MID: 403 for another MID, but no record to miss.
_PARTNER_ONLY = frozenset({"register_webhook", "list_webhooks"})
_PATH_PARAMETER = re.compile(r"\{(\w+)\}")
_ERROR_TEXT = {
    "400": "VALIDATION_ERROR: one errorDetails entry per offending field",
    "401": "UNAUTHORIZED: missing key or digest, unknown or inactive key, wrong digest",
    "403": "FORBIDDEN: the record, or the MID in the path, belongs to another partner",
    "404": "NOT_FOUND: no record with this onboardingId",
}
_TIMESTAMP = {"type": "string", "pattern": r"^\d{2}/\d{2}/\d{4} \d{2}:\d{2}:\d{2}$"}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(model=name)}


def _envelope_schema(data: dict[str, Any], *, error: bool) -> dict[str, Any]:
    """The response envelope around ``data``."""
    properties: dict[str, Any] = {
        "gid": {"type": "string"},
        "timestamp": _TIMESTAMP,
        "reasonCode": {"type": "string"},
        "message": {"type": "string"},
        "data": data,
        "errors": {"type": ["object", "null"]},
    }
    required = ["gid", "timestamp", "reasonCode", "data"]
    if error:
        detail = {
            "type": "object",
            "required": ["field", "message"],
            "properties": {"field": {"type": "string"}, "message": {"type": "string"}},
        }
        properties["errorDetails"] = {"type": "array", "items": detail}
        required.append("errorDetails")
    return {"type": "object", "required": required, "properties": properties}


def _shape_schemas() -> dict[str, Any]:
    """JSON Schemas of every request shape and response ``data`` shape, keyed by model name."""
    requests = dict.fromkeys(op.request for op in OPERATIONS.values() if op.request is not None)
    responses = dict.fromkeys(op.response for op in OPERATIONS.values())
    models = [(m, "validation") for m in requests] + [(m, "serialization") for m in responses]
    _, top = models_json_schema(models, ref_template=REF)
    return top["$defs"]


def _operation(op: Operation) -> dict[str, Any]:
    """One operation's OpenAPI object."""
    success = "201" if op.name in CREATED else "200"
    errors = ["401"] if op.request is None else ["400", "401"]
    if op.name in _PARTNER_ONLY:
        errors += ["403"]
    elif op.name not in _NO_RECORD:
        errors += ["403", "404"]
    responses: dict[str, Any] = {
        success: {
            "description": "Success",
            "content": {"application/json": {"schema": _ref(f"{op.response.__name__}Envelope")}},
        },
    }
    for code in errors:
        responses[code] = {
            "description": _ERROR_TEXT[code],
            "content": {"application/json": {"schema": _ref(ERROR_ENVELOPE)}},
        }
    spec: dict[str, Any] = {"operationId": op.name, "summary": op.summary, "responses": responses}
    names = _PATH_PARAMETER.findall(op.path)
    if names:
        spec["parameters"] = [
            {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
            for name in names
        ]
    if op.request is not None:
        spec["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": _ref(op.request.__name__)}},
        }
    return spec


@cache
def onboarding_openapi() -> dict[str, Any]:
    """The whole OpenAPI 3.1 document of the onboarding API."""
    schemas = _shape_schemas()
    for response in dict.fromkeys(op.response for op in OPERATIONS.values()):
        schemas[f"{response.__name__}Envelope"] = _envelope_schema(
            _ref(response.__name__), error=False)
    schemas[ERROR_ENVELOPE] = _envelope_schema({"type": "object"}, error=True)
    paths: dict[str, dict[str, Any]] = {}
    for op in OPERATIONS.values():
        paths.setdefault(op.path, {})[op.method.lower()] = _operation(op)
    digest_text = ("Base64 HMAC-SHA256 keyed with the API secret over the raw body (POST, PUT) "
                   "or the path and query as sent (GET, DELETE)")
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Gateway sandbox: partner onboarding",
            "version": "2",
            "description": "The sandbox's reading of the partner onboarding API, the portal's own "
                           "(docs/gateway-contract.md in its repository).",
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "glAuth": {"type": "apiKey", "in": "header", "name": AUTH_HEADER,
                           "description": "The partner's API key"},
                "glDigest": {"type": "apiKey", "in": "header", "name": DIGEST_HEADER,
                             "description": digest_text},
            },
        },
        "security": [{"glAuth": [], "glDigest": []}],
    }


openapi_bp = Blueprint("openapi", __name__)


@openapi_bp.get("/openapi.json")
def openapi_json() -> Response:
    """Serve the OpenAPI document."""
    return jsonify(onboarding_openapi())
