"""The /_sandbox/ test controls and the OpenAPI document."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import requests
import schemathesis

from portal.gateway.errors import NotFound
from portal.gateway.onboarding.hmac import HmacAuth
from portal.gateway.onboarding.operations import OPERATIONS
from tests.sandbox.support import KEY, SECRET, START


def test_reset_forgets_records_and_restores_keys(sandbox_server, partner, onboarding_id):
    sandbox_server.backend.set_key_active("p1-retired", True)
    response = requests.post(sandbox_server.url + "/_sandbox/reset", timeout=5)
    assert response.status_code == 200
    with pytest.raises(NotFound):
        partner.get_status(onboarding_id)
    assert sandbox_server.backend.active_key("p1-retired") is None
    # the status call above is the only request logged since the reset
    assert [r.method for r in sandbox_server.backend.received_requests()] == ["GET"]


def test_clock_can_be_read_and_advanced(sandbox_server):
    url = sandbox_server.url + "/_sandbox/clock"
    assert requests.get(url, timeout=5).json()["data"]["now"] == START.isoformat()
    moved = requests.post(url, json={"advanceSeconds": 90}, timeout=5).json()
    assert moved["data"]["now"] == "2026-03-02T09:31:30+00:00"
    assert moved["timestamp"] == "02/03/2026 09:31:30"


def test_clock_can_be_set_back_and_reset(sandbox_server):
    url = sandbox_server.url + "/_sandbox/clock"
    requests.post(url, json={"advanceSeconds": 7200}, timeout=5)
    back = requests.post(url, json={"advanceSeconds": -3600}, timeout=5).json()
    assert back["data"]["now"] == "2026-03-02T10:30:00+00:00"
    reset = requests.post(url, json={"reset": True}, timeout=5).json()
    now = datetime.fromisoformat(reset["data"]["now"])
    assert abs((now - datetime.now(UTC)).total_seconds()) < 60  # the real time, not frozen
    assert sandbox_server.clock.offset() == timedelta(0)


@pytest.mark.parametrize("body", [{"advanceSeconds": "soon"}, {},
                                  {"advanceSeconds": -11 * 365 * 24 * 3600}])
def test_clock_refuses_bad_moves(sandbox_server, body):
    response = requests.post(sandbox_server.url + "/_sandbox/clock", json=body, timeout=5)
    assert response.status_code == 400
    assert response.json()["errorDetails"][0]["field"] == "advanceSeconds"


def test_openapi_document_describes_every_operation(sandbox_server):
    document = requests.get(sandbox_server.url + "/openapi.json", timeout=5).json()
    assert document["openapi"] == "3.1.0"
    for operation in OPERATIONS.values():
        spec = document["paths"][operation.path][operation.method.lower()]
        assert spec["operationId"] == operation.name
        assert "401" in spec["responses"]
        assert ("requestBody" in spec) == (operation.request is not None)
    assert document["components"]["securitySchemes"]["glAuth"]["name"] == "x-gl-auth"


def test_openapi_document_loads_in_schemathesis(sandbox_server):
    schema = schemathesis.openapi.from_url(sandbox_server.url + "/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == len(OPERATIONS)


def test_a_bug_answers_500_system_error_in_the_envelope(sandbox_server, onboarding_id,
                                                       monkeypatch, caplog):
    def broken(*_args: object) -> dict:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(sandbox_server.backend, "get_status", broken)
    path = OPERATIONS["get_status"].url_path(onboardingId=onboarding_id)
    response = requests.get(sandbox_server.url + path, auth=HmacAuth(KEY, SECRET), timeout=5)
    assert response.status_code == 500
    assert response.json()["reasonCode"] == "SYSTEM_ERROR"
    assert "simulated bug" not in response.text
    assert "Unexpected error on GET" in caplog.text
