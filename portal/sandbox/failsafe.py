"""The last line of defence: an unexpected exception is logged and answered as 500 SYSTEM_ERROR."""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from portal.core.clock import Clock
from portal.sandbox.envelopes import envelope

log = logging.getLogger("portal.sandbox")


def install_failsafe(app: Flask, clock: Clock) -> None:
    """Answer a bug in any sandbox view with the gateway's 500 envelope instead of HTML."""

    def unexpected(error: Exception) -> HTTPException | tuple[Response, int]:
        """Pass HTTP errors through; log anything else and answer 500 SYSTEM_ERROR."""
        if isinstance(error, HTTPException):
            return error  # routing and protocol errors keep their own status
        log.exception("Unexpected error on %s %s", request.method, request.path)
        body = envelope({}, now=clock.now(), reason_code="SYSTEM_ERROR", errors=[],
                        message="Unexpected error in the sandbox")
        return jsonify(body), 500

    app.register_error_handler(Exception, unexpected)
