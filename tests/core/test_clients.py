"""The portal builds its onboarding client once per app and settings, and its clients wait
between retries on the portal's clock."""

from __future__ import annotations

import pytest

from portal.core import clock
from portal.core.clients import current_onboarding_client
from portal.core.config import SETTINGS_EXTENSION
from portal.gateway.errors import NotFound
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.support.sleeps import SleepRecorder


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


def test_a_retry_waits_on_the_portals_clock(app, sandbox, monkeypatch) -> None:
    waits = SleepRecorder()
    monkeypatch.setattr(clock.current, "sleep", waits)  # the suite's clock, recording
    sandbox.state.faults.set(Fault(FaultKind.ERROR, operation="get_status", times=1))
    with app.app_context(), pytest.raises(NotFound):
        current_onboarding_client().get_status("no-such-onboarding")  # 500, then 404
    assert len(waits.delays) == 1
    assert 0 <= waits.delays[0] <= 0.25  # the first backoff's ceiling
