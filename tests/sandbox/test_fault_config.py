"""Faults from the sandbox's config file: re-armed by a reset, and dropped under gunicorn."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from flask import Flask

from portal.gateway.errors import GatewayUnavailable
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.retry import NO_RETRY
from portal.sandbox.app import create_sandbox_app, state_of
from portal.sandbox.common.config import load_config
from tests.sandbox.faulted_calls import already_used
from tests.sandbox.payloads import create_body
from tests.sandbox.support import CONFIG, KEY, SECRET
from tests.support.servers import gunicorn, serve

#: Environment variable naming the config file of :func:`gunicorn_sandbox`.
CONFIG_ENV = "FAULTS_TEST_SANDBOX_CONFIG"


def config_file(tmp_path: Path, faults: list[dict]) -> Path:
    """The test partners' config with ``faults``, written to a file."""
    path = tmp_path / "sandbox.json"
    path.write_text(json.dumps({**CONFIG, "faults": {"seed": 1, "faults": faults}}),
                    encoding="utf-8")
    return path


def test_faults_from_the_config_file_are_rearmed_by_a_reset(tmp_path):
    path = config_file(tmp_path, [{"kind": "error", "operation": "create_onboarding",
                                   "times": 1}])
    app = create_sandbox_app(load_config(path))
    with serve(app) as url:
        client = OnboardingClient(url, KEY, SECRET, retry=NO_RETRY)
        for _ in range(2):
            with pytest.raises(GatewayUnavailable):
                client.create_onboarding(create_body())
            assert client.create_onboarding(create_body()).record.merchantInfo.onboardingId
            assert requests.post(url + "/_sandbox/reset", timeout=5).status_code == 200
    assert state_of(app).faults.describe()["faults"][0]["times"] == 1


def gunicorn_sandbox() -> Flask:
    """The sandbox for gunicorn, from the config file named in the environment."""
    return create_sandbox_app(load_config(os.environ[CONFIG_ENV]))


@pytest.fixture(params=["sync", "gthread"])
def gunicorn_url(request, tmp_path) -> Iterator[str]:
    """The sandbox under gunicorn: the first create reset, the second applied and lost."""
    path = config_file(tmp_path, [
        {"kind": "reset", "operation": "create_onboarding", "times": 1},
        {"kind": "lost", "operation": "create_onboarding", "times": 1},
    ])
    with gunicorn("tests.sandbox.test_fault_config:gunicorn_sandbox()",
                  {**os.environ, CONFIG_ENV: str(path)}, "/openapi.json", None,
                  "--worker-class", request.param, "--workers", "1") as url:
        yield url


def test_dropped_connections_under_gunicorn(gunicorn_url):
    client = OnboardingClient(gunicorn_url, KEY, SECRET, retry=NO_RETRY)
    reset, lost = create_body(), create_body(pan="ABCCE2468F")
    for body in (reset, lost):
        with pytest.raises(GatewayUnavailable) as failed:
            client.create_onboarding(body)
        assert failed.value.http_status is None
    assert client.create_onboarding(reset).record.merchantInfo.onboardingStatus == "INITIATED"
    assert already_used(client, lost) == ["externalOnboardingId", "panNumber"]
