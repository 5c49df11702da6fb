"""The portal builds its onboarding client once per app and settings."""

from __future__ import annotations

from portal.core.clients import current_onboarding_client
from portal.core.config import SETTINGS_EXTENSION


def test_one_client_serves_every_request_of_an_app(app) -> None:
    with app.test_request_context("/"):
        first = current_onboarding_client()
    with app.test_request_context("/"):
        assert current_onboarding_client() is first


def test_new_settings_build_a_new_client(app, settings) -> None:
    with app.app_context():
        before = current_onboarding_client()
        app.extensions[SETTINGS_EXTENSION] = settings.with_changes(
            onboarding_url="http://127.0.0.1:9")
        after = current_onboarding_client()
    assert after is not before
    assert after.transport.base_url == "http://127.0.0.1:9"
