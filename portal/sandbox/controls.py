"""Test controls under ``/_sandbox/`` (JSON, no authentication: the sandbox is local only).

- ``POST /_sandbox/reset``: forget every record, token and logged request of every API.
- ``GET /_sandbox/clock``: the sandbox's current time.
- ``POST /_sandbox/clock`` ``{"advanceSeconds": 3600}``: move the clock forward (a negative
  number sets it back); ``{"reset": true}``: back to the real time.
- ``POST /_sandbox/merchants`` ``{"mid": "...", "kid": "...", "publicKeyPem": "...",
  "subMerchants": ["..."]}``: register a merchant's payments key (loopback callers only; the
  portal calls it in sandbox mode); ``subMerchants`` makes ``mid`` a portfolio (parent MID) whose
  key also signs for them.
- ``GET /_sandbox/faults``: the armed faults and those applied.
- ``POST /_sandbox/faults`` ``{"seed": 7, "faults": [{"kind": "error", "times": 1}]}``: arm a
  fault plan (``portal.sandbox.faults``) in place of the armed one.
- ``DELETE /_sandbox/faults``: disarm every fault (a reset re-arms the config file's).
"""

from __future__ import annotations

from typing import Annotated

from flask import Blueprint, Response, jsonify, request
from pydantic import Field

from portal.gateway.shapes import FieldError, RequestModel, validate_payload
from portal.sandbox.common.envelopes import envelope
from portal.sandbox.common.errors import ApiError, validation_error
from portal.sandbox.common.fault_plans import FaultPlan
from portal.sandbox.common.json_body import read_json
from portal.sandbox.state import SandboxState

#: The furthest one call may move the clock, either way: ten years.
MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600
#: Addresses allowed to register merchant keys.
LOOPBACK = frozenset({"127.0.0.1", "::1"})


class ClockChange(RequestModel):
    """Body of ``POST /_sandbox/clock``: move the clock by ``advanceSeconds`` (back when
    negative), or ``reset`` it to the real time."""

    advanceSeconds: Annotated[float, Field(ge=-MAX_ADVANCE_SECONDS,
                                           le=MAX_ADVANCE_SECONDS)] | None = None
    reset: bool = False


class MerchantKeyRegistration(RequestModel):
    """Body of ``POST /_sandbox/merchants``."""

    mid: Annotated[str, Field(min_length=1, max_length=64)]
    kid: Annotated[str, Field(min_length=1, max_length=128)]
    publicKeyPem: Annotated[str, Field(min_length=1, max_length=10_000)]
    subMerchants: Annotated[list[Annotated[str, Field(min_length=1, max_length=64)]],
                            Field(max_length=10_000)] = Field(default_factory=list)


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
    def move_clock() -> Response:
        """Move the sandbox's clock by ``advanceSeconds`` (back when negative), or reset it to
        the real time."""
        value, errors = validate_payload(ClockChange, read_json(request))
        if not errors and value.advanceSeconds is None and not value.reset:
            errors = [FieldError("advanceSeconds", "Give advanceSeconds (negative sets the clock "
                                                   "back) or reset: true")]
        if errors:
            raise validation_error(errors)
        if value.reset:
            state.clock.reset()
        state.clock.advance(value.advanceSeconds or 0.0)
        return answer(clock_data())

    @bp.post("/merchants")
    def register_merchant_key() -> Response:
        """Register a merchant's payments public key under its kid; loopback callers only."""
        if request.remote_addr not in LOOPBACK:
            raise ApiError(403, "FORBIDDEN", "Keys are registered from this machine only")
        value, errors = validate_payload(MerchantKeyRegistration, read_json(request))
        if errors:
            raise validation_error(errors)
        state.payments.register_key(value.mid, value.kid, value.publicKeyPem,
                                                value.subMerchants)
        return answer({"mid": value.mid, "kid": value.kid, "subMerchants": value.subMerchants})

    @bp.post("/onboarding/<onboarding_id>/reset")
    def reset_section(onboarding_id: str) -> Response:
        """Reset a locked record for one change of a section, as the merchant support does;
        loopback callers only."""
        if request.remote_addr not in LOOPBACK:
            raise ApiError(403, "FORBIDDEN", "Records are reset from this machine only")
        body = read_json(request)
        section = str(body.get("section", "")) if isinstance(body, dict) else ""
        state.onboarding.reset_section(onboarding_id, section)
        return answer({"onboardingId": onboarding_id, "reset": section})

    @bp.get("/faults")
    def read_faults() -> Response:
        """The armed faults and those applied."""
        return answer(state.faults.describe())

    @bp.post("/faults")
    def load_faults() -> Response:
        """Arm the fault plan in the body in place of the armed one."""
        plan, errors = validate_payload(FaultPlan, read_json(request))
        if errors:
            raise validation_error(errors)
        state.faults.load(plan)
        return answer(state.faults.describe())

    @bp.delete("/faults")
    def clear_faults() -> Response:
        """Disarm every fault."""
        state.faults.clear()
        return answer(state.faults.describe())

    return bp
