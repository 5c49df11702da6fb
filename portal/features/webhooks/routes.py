"""``POST /webhooks/onboarding``: the gateway's onboarding events (no session, no CSRF)."""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

from portal.core.config import current_settings
from portal.features.webhooks import service
from portal.gateway.onboarding.hmac import DIGEST_HEADER
from portal.web.auth.access import public
from portal.web.csrf import csrf
from portal.web.http import reads_raw_body

bp = Blueprint("webhooks", __name__)


@bp.post("/webhooks/onboarding")
@public
@csrf.exempt
@reads_raw_body
def onboarding() -> ResponseReturnValue:
    """Check, store once and re-read the status; 200 unless the delivery is refused."""
    settings = current_settings()
    receipt = service.receive(request.get_data(), request.headers.get(DIGEST_HEADER), settings,
                              service.webhook_client(settings), request.remote_addr)
    return jsonify(outcome=receipt.outcome), receipt.status
