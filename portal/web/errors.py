"""Error handlers that answer JSON or HTML by Accept; a 500 rolls back and reveals nothing."""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, InternalServerError

from portal.core.db import db
from portal.gateway.tracing import request_id
from portal.web.http import wants_json

bp = Blueprint("errors", __name__)


def _answer(error: HTTPException) -> ResponseReturnValue:
    code = error.code or 500
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
