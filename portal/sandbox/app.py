"""The sandbox's Flask app factory."""

from __future__ import annotations

from flask import Flask, jsonify

from portal.core.clock import Clock
from portal.sandbox.config import SandboxConfig
from portal.sandbox.dialect import speaks_docs
from portal.sandbox.envelopes import envelope
from portal.sandbox.errors import ApiError
from portal.sandbox.faults import FaultInjector
from portal.sandbox.install import install_onboarding
from portal.sandbox.payments.routes import install_payments
from portal.sandbox.state import SandboxState

EXTENSION = "gateway_sandbox"


def state_of(app: Flask) -> SandboxState:
    """The sandbox state attached to an app made by :func:`create_sandbox_app`."""
    return app.extensions[EXTENSION]


def create_sandbox_app(config: SandboxConfig, clock: Clock | None = None) -> Flask:
    """Build the sandbox app for ``config``; ``clock`` lets tests move time."""
    app = Flask(__name__, template_folder="templates", static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = 16 * 1024 * 1024
    clock = clock or Clock()
    faults = FaultInjector(config.faults, clock,
                           lambda: speaks_docs(config.answerDialect))
    state = SandboxState(config=config, clock=clock, faults=faults)
    app.extensions[EXTENSION] = state
    app.wsgi_app = state.faults.wrap(app.wsgi_app)

    @app.errorhandler(ApiError)
    def _api_error(error: ApiError):
        body = envelope({}, now=state.clock.now(), reason_code=error.reason_code,
                        errors=error.field_errors or [], message=error.message)
        return jsonify(body), error.status

    install_onboarding(app, state)
    install_payments(app, state)
    return app
