"""Plugs the onboarding API, its OpenAPI document, the verification page, the test controls and
the 500 failsafe in."""

from __future__ import annotations

from flask import Flask

from portal.sandbox.control import control_blueprint
from portal.sandbox.failsafe import install_failsafe
from portal.sandbox.onboarding.backend import OnboardingBackend
from portal.sandbox.onboarding.openapi import openapi_bp
from portal.sandbox.onboarding.routes import onboarding_blueprint
from portal.sandbox.state import BACKEND_NAME, SESSIONS_NAME, SandboxState
from portal.sandbox.verification.routes import verification_blueprint
from portal.sandbox.verification.sessions import VerificationSessions
from portal.sandbox.webhooks.controls import webhook_controls_blueprint


def install_onboarding(app: Flask, state: SandboxState) -> OnboardingBackend:
    """Register the onboarding backend in ``state`` and its endpoints on ``app``."""
    backend = OnboardingBackend(state.config, state.clock)
    state.backends[BACKEND_NAME] = backend
    sessions = VerificationSessions(backend, state.clock)
    state.backends[SESSIONS_NAME] = sessions
    app.register_blueprint(onboarding_blueprint(backend, state.clock, state.config))
    app.register_blueprint(verification_blueprint(backend, sessions))
    app.register_blueprint(webhook_controls_blueprint(backend.webhooks, state.clock))
    app.register_blueprint(openapi_bp)
    app.register_blueprint(control_blueprint(state))
    install_failsafe(app, state.clock)
    return backend
