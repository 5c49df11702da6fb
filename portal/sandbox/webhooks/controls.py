"""Test controls of the onboarding webhooks (JSON, no authentication: the sandbox is local only).

- ``GET /_sandbox/webhooks``: the delivery log (event, attempt, status code, outcome), how many
  deliveries wait for a retry, and the faults in force.
- ``POST /_sandbox/webhooks/faults`` ``{"duplicate": true, "reverse_order": false}``: switch the
  test faults until the next reset.
"""

from __future__ import annotations

from dataclasses import asdict

from flask import Blueprint, Response, jsonify, request

from portal.core.clock import Clock
from portal.gateway.shapes import RequestModel, validate_payload
from portal.sandbox.common.envelopes import envelope
from portal.sandbox.common.errors import validation_error
from portal.sandbox.common.json_body import read_json
from portal.sandbox.webhooks.dispatcher import WebhookDispatcher, WebhookFaults


class FaultSwitches(RequestModel):
    """Body of ``POST /_sandbox/webhooks/faults``."""

    duplicate: bool = False
    reverse_order: bool = False


def webhook_controls_blueprint(webhooks: WebhookDispatcher, clock: Clock) -> Blueprint:
    """The ``/_sandbox/webhooks`` controls over ``webhooks``."""
    bp = Blueprint("sandbox_webhooks", __name__, url_prefix="/_sandbox/webhooks")

    def answer() -> Response:
        data = {"deliveries": [attempt.as_json() for attempt in webhooks.deliveries()],
                "pending": webhooks.pending(), "faults": asdict(webhooks.faults())}
        return jsonify(envelope(data, now=clock.now()))

    @bp.get("")
    def read_log() -> Response:
        """The delivery log, the deliveries waiting and the faults."""
        return answer()

    @bp.post("/faults")
    def set_faults() -> Response:
        """Switch the duplicate and reverse-order faults."""
        value, errors = validate_payload(FaultSwitches, read_json(request))
        if errors:
            raise validation_error(errors)
        webhooks.set_faults(WebhookFaults(value.duplicate, value.reverse_order))
        return answer()

    return bp
