"""Test controls under ``/_sandbox/`` (JSON, no authentication: the sandbox is local only).

- ``POST /_sandbox/reset``: forget every record, token and logged request of every API.
- ``GET /_sandbox/clock``: the sandbox's current time.
- ``POST /_sandbox/clock`` ``{"advanceSeconds": 3600}``: move the clock forward.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from flask import Blueprint, Response, jsonify, request
from pydantic import Field

from portal.gateway.shapes import RequestModel, envelope, validate_payload
from portal.sandbox.errors import validation_error
from portal.sandbox.json_body import read_json

if TYPE_CHECKING:  # the state is defined by the app factory, which installs this blueprint
    from portal.sandbox.app import SandboxState

#: The furthest one call may move the clock: ten years.
MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600


class ClockAdvance(RequestModel):
    """Body of ``POST /_sandbox/clock``."""

    advanceSeconds: Annotated[float, Field(ge=0, le=MAX_ADVANCE_SECONDS)]


def control_blueprint(state: SandboxState) -> Blueprint:
    """The ``/_sandbox/`` controls over ``state``."""
    bp = Blueprint("sandbox_control", __name__, url_prefix="/_sandbox")

    def answer(data: dict) -> Response:
        return jsonify(envelope(data, now=state.clock.now()))

    def clock_data() -> dict:
        return {"now": state.clock.now().isoformat()}

    @bp.post("/reset")
    def reset() -> Response:
        """Forget every record of every API."""
        state.reset()
        return answer({"reset": True})

    @bp.get("/clock")
    def read_clock() -> Response:
        """The sandbox's current time."""
        return answer(clock_data())

    @bp.post("/clock")
    def advance_clock() -> Response:
        """Move the sandbox's clock forward by ``advanceSeconds``."""
        value, errors = validate_payload(ClockAdvance, read_json(request))
        if errors:
            raise validation_error(errors)
        state.clock.advance(value.advanceSeconds)
        return answer(clock_data())

    return bp
