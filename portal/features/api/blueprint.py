"""The API's blueprint, which each resource's routes add themselves to."""

from __future__ import annotations

from flask import Blueprint, Response
from flask.blueprints import BlueprintSetupState

from portal.features.api.problems import Problem, problem_response
from portal.web.csrf import csrf
from portal.web.errors import render_errors_under

#: Every route under /api/v1: key-authenticated, so no session and no CSRF token.
bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)


def _problem(status: int, detail: str) -> Response:
    """An error the router or Flask raised under the prefix (no such route, no such method,
    too large), as a problem document."""
    return problem_response(Problem(status, detail))


@bp.record_once
def _errors_as_problems(state: BlueprintSetupState) -> None:
    render_errors_under(state.app.extensions, "/api/v1/", _problem)
