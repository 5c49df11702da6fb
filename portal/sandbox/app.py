"""The sandbox's Flask app factory: the state, every emulated API, its controls, the last line
of defence that answers an unexpected error as the gateway's 500, and the records kept across
restarts.

Kept across restarts as the portal's own database is: a JSON snapshot of
:class:`~portal.sandbox.state.SandboxState` in one file (``python -m portal.sandbox --state
FILE``; ``make run`` keeps ``instance/sandbox-state.json``). Tests keep an in-memory sandbox.


The file is written before the answer of every request that may change something (any method
but GET, and the GET of the verification page, which uses its link up) and after every tick
that did something: the snapshot goes to a temporary file beside it, is flushed to disk, then
renamed over the old one, so a sandbox killed at any line leaves the old snapshot or the new
one, never half of one, and nothing it answered is lost. Writing costs about 0.5 ms per
onboarding record (200 merchants with every step sent: 90 ms), which suits a development
emulator, not a load test (the benchmarks use an in-memory sandbox). A file that cannot be read
is set aside (``.unreadable``) with a warning, and the sandbox starts empty.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from pathlib import Path

from flask import Flask, Response, jsonify, request
from pydantic import ValidationError
from werkzeug.exceptions import HTTPException

from portal.core.clock import Clock
from portal.sandbox.common.config import SandboxConfig
from portal.sandbox.common.dialect import speaks_docs
from portal.sandbox.common.envelopes import envelope
from portal.sandbox.common.errors import ApiError
from portal.sandbox.controls import control_blueprint
from portal.sandbox.faults import FaultInjector
from portal.sandbox.onboarding.backend import OnboardingBackend
from portal.sandbox.onboarding.openapi import openapi_bp
from portal.sandbox.onboarding.routes import onboarding_blueprint
from portal.sandbox.payments.routes import install_payments
from portal.sandbox.state import SandboxState
from portal.sandbox.verification.routes import PAGE_PATH, verification_blueprint
from portal.sandbox.webhooks.controls import webhook_controls_blueprint

EXTENSION = "gateway_sandbox"
log = logging.getLogger("portal.sandbox")


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

    app.register_blueprint(onboarding_blueprint(state.onboarding, state.clock, state.config))
    app.register_blueprint(verification_blueprint(state.onboarding, state.sessions))
    app.register_blueprint(webhook_controls_blueprint(state.onboarding.webhooks, state.clock))
    app.register_blueprint(openapi_bp)
    app.register_blueprint(control_blueprint(state))
    install_payments(app, state.payments, state.config, state.clock)
    _install_failsafe(app, state.clock)
    return app


def _install_failsafe(app: Flask, clock: Clock) -> None:
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


persistence_log = logging.getLogger("portal.sandbox.persistence")


class StateFile:
    """Where one sandbox's snapshot lives; ``save`` writes it only when it changed."""

    def __init__(self, path: Path, state: SandboxState) -> None:
        self.path = path
        self._state = state
        self._lock = threading.Lock()
        self._written = ""

    def load(self) -> bool:
        """Restore the state from the file; False when there was none (or none readable)."""
        if not self.path.exists():
            return False
        text = self.path.read_text(encoding="utf-8")
        try:
            self._state.restore(json.loads(text))
        except (ValueError, ValidationError, KeyError, TypeError) as exc:
            aside = self.path.with_name(self.path.name + ".unreadable")
            os.replace(self.path, aside)
            persistence_log.warning("Sandbox state in %s could not be read (%s); set aside as "
                                    "%s, starting empty", self.path, type(exc).__name__, aside)
            self._state.reset()
            return False
        self._written = text
        return True

    def save(self) -> None:
        """Write the snapshot if it changed since the last write, atomically (owner-only)."""
        with self._lock:
            text = json.dumps(self._state.snapshot(), sort_keys=True, separators=(",", ":"))
            if text == self._written:
                return
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(self.path.name + ".tmp")
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, self.path)
            self._written = text


def keep_state(app: Flask, state: SandboxState, path: Path) -> StateFile:
    """Restore ``app``'s sandbox from ``path`` and save it after every request from now on."""
    state_file = StateFile(path, state)
    if state_file.load():
        persistence_log.info("Sandbox records restored from %s", path)

    @app.after_request
    def _save(response: Response) -> Response:
        if request.method != "GET" or request.path.startswith(PAGE_PATH):
            state_file.save()
        return response

    return state_file


class SavingTicker:
    """The ticker's target (reviews and webhooks falling due), saving the state after a tick
    that did something, since a tick changes records without any request."""

    def __init__(self, target: OnboardingBackend, state_file: StateFile) -> None:
        self._target = target
        self._state_file = state_file

    def tick(self) -> None:
        """Run what is due, then keep it."""
        before = self._target.activity()
        self._target.tick()
        if self._target.activity() != before:
            self._state_file.save()
