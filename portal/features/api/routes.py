"""The API's blueprint with every resource's routes, its OpenAPI document and reference page.

Importing the resource modules adds their operations to the blueprint (``operations``).
"""

from __future__ import annotations

from flask import jsonify, render_template
from flask.typing import ResponseReturnValue

from portal.features.api import (  # noqa: F401  (their routes)
    document_routes,
    health_routes,
    link_routes,
    merchant_routes,
    payment_routes,
    step_routes,
    verification_routes,
    webhook_routes,
)
from portal.features.api.blueprint import bp
from portal.features.api.openapi import document, path_of
from portal.features.api.operations import OPERATIONS
from portal.web.auth.access import public

__all__ = ["bp"]


@bp.get("/openapi.json")
@public
def openapi() -> ResponseReturnValue:
    """The OpenAPI 3.1 document."""
    return jsonify(document())


@bp.get("/")
@public
def reference() -> ResponseReturnValue:
    """The API's reference page: every operation, its scope and its models."""
    return render_template("api/reference.html", operations=OPERATIONS, document=document(),
                           paths={op.endpoint: path_of(op.rule) for op in OPERATIONS})
