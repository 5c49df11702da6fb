"""Error handlers that answer JSON or HTML by Accept; a 500 rolls back and reveals nothing.

A feature answering under a path of its own in a shape of its own (the API's problem
documents) names that path and its renderer in ``app.extensions[ERROR_RENDERERS]``."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, InternalServerError

from portal.core.db import db
from portal.gateway.tracing import request_id
from portal.web.http import wants_json

bp = Blueprint("errors", __name__)

#: Where (in ``app.extensions``) path prefixes map to the renderer of their errors.
ERROR_RENDERERS = "portal_error_renderers"
#: A renderer: the status and the description to an answer.
Renderer = Callable[[int, str], Response]


def render_errors_under(extensions: dict[str, object], prefix: str, render: Renderer) -> None:
    """Let ``render`` answer every error of a path starting with ``prefix``."""
    renderers: dict[str, Renderer] = extensions.setdefault(ERROR_RENDERERS, {})  # type: ignore[assignment]
    renderers[prefix] = render


def _answer(error: HTTPException) -> ResponseReturnValue:
    code = error.code or 500
    renderers: dict[str, Renderer] = current_app.extensions.get(ERROR_RENDERERS, {})
    for prefix, render in renderers.items():
        if request.path.startswith(prefix):
            return render(code, str(error.description or error.name))
    if wants_json():
        return jsonify(error=error.name.lower().replace(" ", "_"), message=error.description,
                       reference=request_id.get()), code
    return render_template([f"errors/{code}.html", "errors/default.html"], error=error), code


@bp.app_errorhandler(HTTPException)
def http_error(error: HTTPException) -> ResponseReturnValue:
    """403, 404, 405, CSRF failures and other HTTP errors."""
    return _answer(error)


@bp.app_errorhandler(InternalServerError)
def internal_error(error: InternalServerError) -> ResponseReturnValue:
    """Undo the failed request's database work and answer without details."""
    db.session.rollback()
    return _answer(InternalServerError())
