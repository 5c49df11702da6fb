"""Fault injection, through the real HTTP path: the OnboardingClient against the served sandbox."""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from flask import Flask

from portal.gateway.errors import GatewayUnavailable, ValidationFailed
from portal.gateway.onboarding_client import OnboardingClient
from portal.gateway.onboarding_shapes import OPERATIONS
from portal.gateway.retry import NO_RETRY
from portal.gateway.transport import Timeouts
from portal.sandbox.app import create_sandbox_app, state_of
from portal.sandbox.config import load_config
from portal.sandbox.faults import Fault, FaultKind
from tests.sandbox.conftest import CONFIG, KEY, SECRET
from tests.sandbox.payloads import business, create_body
from tests.support.sandbox import RunningSandbox
from tests.support.servers import gunicorn, serve
from tests.support.sleeps import SleepRecorder

CREATE = OPERATIONS["create_onboarding"].path
CATEGORIES = OPERATIONS["get_business_categories"].path
#: Environment variable naming the config file of :func:`gunicorn_sandbox`.
CONFIG_ENV = "FAULTS_TEST_SANDBOX_CONFIG"
#: The project root, from which gunicorn imports this module.
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def sleeps() -> SleepRecorder:
    """The backoff delays the retrying client asked for."""
    return SleepRecorder()


@pytest.fixture
def retrying(sandbox_server: RunningSandbox, sleeps: SleepRecorder) -> OnboardingClient:
    """Partner p1's client with the default retry policy and no real backoff."""
    return OnboardingClient(sandbox_server.url, KEY, SECRET, sleep=sleeps)


def already_used(client: OnboardingClient, body: dict) -> list[str]:
    """The fields a second create with the same body is refused on (reconciliation's probe)."""
    with pytest.raises(ValidationFailed) as refused:
        client.create_onboarding(body)
    return sorted(e.field for e in refused.value.field_errors)


def test_get_status_is_retried_through_one_503(sandbox_server, retrying, onboarding_id, sleeps):
    sandbox_server.state.faults.set(Fault(FaultKind.ERROR, operation="get_status", times=1))
    status = retrying.get_status(onboarding_id)
    assert status.merchantInfo.onboardingId == onboarding_id
    assert [f.kind for f in sandbox_server.state.faults.applied()] == [FaultKind.ERROR]
    assert len(sleeps.delays) == 1


def test_create_answered_503_is_outcome_unknown_not_retried_and_not_applied(
        sandbox_server, retrying, sleeps):
    sandbox_server.state.faults.set(Fault(FaultKind.ERROR, operation="create_onboarding"))
    body = create_body()
    with pytest.raises(GatewayUnavailable) as failed:
        retrying.create_onboarding(body)
    assert failed.value.outcome_unknown
    assert failed.value.http_status == 503
    assert failed.value.reason_code == "SYSTEM_ERROR"
    assert sandbox_server.state.faults.count() == 1
    assert sleeps.delays == []
    sandbox_server.state.faults.clear()
    assert retrying.create_onboarding(body).merchantInfo.partnerOnboardingId == (
        body["externalOnboardingId"])


@pytest.mark.parametrize("status", [500, 502, 503])
def test_error_answer_is_the_system_error_envelope(sandbox_server, status):
    sandbox_server.state.faults.set(Fault(FaultKind.ERROR, status=status))
    response = requests.get(sandbox_server.url + CATEGORIES, timeout=5)
    assert response.status_code == status
    assert response.json()["reasonCode"] == "SYSTEM_ERROR"
    assert response.json()["errorDetails"] == []
    assert sandbox_server.backend.received_requests() == []


def test_connection_reset_on_create_is_unavailable_and_not_applied(sandbox_server, retrying,
                                                                   sleeps):
    sandbox_server.state.faults.set(Fault(FaultKind.RESET, method="POST", times=1))
    body = create_body()
    with pytest.raises(GatewayUnavailable) as failed:
        retrying.create_onboarding(body)
    assert failed.value.http_status is None
    assert failed.value.outcome_unknown  # the client cannot tell it was not applied
    assert sleeps.delays == []
    assert retrying.create_onboarding(body).merchantInfo.onboardingStatus == "INITIATED"


@pytest.mark.parametrize("kind", [FaultKind.RESET, FaultKind.LOST])
def test_a_dropped_connection_is_a_requests_connection_error(sandbox_server, kind):
    sandbox_server.state.faults.set(Fault(kind, path="*/business-category"))
    with pytest.raises(requests.ConnectionError):
        requests.get(sandbox_server.url + CATEGORIES, timeout=5)


@pytest.mark.parametrize("drop", [False, True])
def test_read_timeout_on_put_is_retried_and_succeeds(sandbox_server, sleeps, onboarding_id,
                                                     drop):
    client = OnboardingClient(sandbox_server.url, KEY, SECRET, sleep=sleeps,
                              timeouts=Timeouts(connect=5, read=0.2))
    sandbox_server.state.faults.set(Fault(FaultKind.TIMEOUT, operation="update_business_details",
                                          seconds=0.6, drop=drop, times=1))
    merchant = client.update_business_details(onboarding_id, business())
    assert merchant.merchantInfo.onboardingStatus == "IN_PROGRESS"
    assert sandbox_server.state.faults.count() == 1
    assert len(sleeps.delays) >= 1
    # the held request is applied too (a timeout says nothing), in its own thread, once its
    # delay is over: wait for that event rather than assume the retry arrived second
    deadline = time.monotonic() + 30
    while len(puts_received(sandbox_server)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(puts_received(sandbox_server)) >= 2


def puts_received(sandbox: RunningSandbox) -> list:
    """The PUT requests the sandbox has applied so far."""
    return [r for r in sandbox.backend.received_requests() if r.method == "PUT"]


def test_response_lost_after_create_leaves_the_record_for_reconciliation(sandbox_server,
                                                                         retrying, sleeps):
    sandbox_server.state.faults.set(Fault(FaultKind.LOST, operation="create_onboarding",
                                          times=1))
    body = create_body()
    with pytest.raises(GatewayUnavailable) as failed:
        retrying.create_onboarding(body)
    assert failed.value.outcome_unknown
    assert sleeps.delays == []
    # the record exists: the same create is refused on its id (and on its now onboarded PAN)
    assert already_used(retrying, body) == ["externalOnboardingId", "panNumber"]
    with pytest.raises(ValidationFailed) as refused:
        retrying.create_onboarding(create_body(external_id=body["externalOnboardingId"],
                                               pan="ABCCE2468F"))
    [error] = refused.value.field_errors
    assert (error.field, error.message) == ("externalOnboardingId",
                                            "This externalOnboardingId was used before")


def test_latency_is_added(sandbox_server, partner, monkeypatch):
    waits = SleepRecorder()
    monkeypatch.setattr(time, "sleep", waits)  # the fault's wait, recorded rather than waited
    sandbox_server.state.faults.set(Fault(FaultKind.LATENCY, seconds=0.2,
                                          operation="get_business_categories"))
    assert partner.get_business_categories()
    assert waits.delays == [0.2]
    assert [f.kind for f in sandbox_server.state.faults.applied()] == [FaultKind.LATENCY]


def outcomes(partner: OnboardingClient, calls: int) -> list[bool]:
    """Which of ``calls`` category look-ups failed."""
    failed = []
    for _ in range(calls):
        try:
            partner.get_business_categories()
        except GatewayUnavailable:
            failed.append(True)
        else:
            failed.append(False)
    return failed


def test_rate_based_errors_follow_the_seed(sandbox_server, partner):
    fault = Fault(FaultKind.ERROR, rate=0.5, operation="get_business_categories")
    sandbox_server.state.faults.set(fault, seed=7)
    first = outcomes(partner, 12)
    sandbox_server.state.faults.set(fault, seed=7)
    assert outcomes(partner, 12) == first
    draws = random.Random(7)  # the injector draws once per matching request
    assert first == [draws.random() < 0.5 for _ in range(12)]
    assert True in first
    assert False in first


def test_times_counts_down_and_then_the_fault_is_gone(sandbox_server, partner):
    sandbox_server.state.faults.set(Fault(FaultKind.ERROR, times=2))
    assert outcomes(partner, 3) == [True, True, False]
    assert sandbox_server.state.faults.describe()["faults"] == []


def test_times_holds_under_concurrent_requests(sandbox_server):
    sandbox_server.state.faults.set(Fault(FaultKind.ERROR, operation="get_business_categories",
                                          times=5))
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(
            lambda _: requests.get(sandbox_server.url + CATEGORIES, timeout=5).status_code,
            range(24)))
    assert statuses.count(503) == 5
    assert sandbox_server.state.faults.count() == 5


def test_faults_hit_the_payments_api_too(sandbox_server):
    sandbox_server.state.faults.set(Fault(FaultKind.ERROR, path="/gl/v1/payments/*", status=502))
    response = requests.get(sandbox_server.url + "/gl/v1/payments/gl-1/status", timeout=5)
    assert response.status_code == 502
    assert response.json()["reasonCode"] == "SYSTEM_ERROR"


def test_faults_hit_the_webhook_registration_by_operation(sandbox_server, partner):
    sandbox_server.state.faults.set(Fault(FaultKind.ERROR, operation="register_webhook",
                                          status=503))
    assert partner.list_webhooks("p1").webhooks == []  # another operation: untouched
    with pytest.raises(GatewayUnavailable):
        partner.register_webhook("p1", "https://partner.example/hook")
    assert partner.list_webhooks("p1").webhooks == []


def test_faults_never_touch_controls_or_the_openapi_document(sandbox_server, partner):
    sandbox_server.state.faults.set(Fault(FaultKind.RESET))
    for path in ("/_sandbox/clock", "/_sandbox/faults", "/openapi.json"):
        assert requests.get(sandbox_server.url + path, timeout=5).status_code == 200
    assert sandbox_server.state.faults.count() == 0
    with pytest.raises(GatewayUnavailable):
        partner.get_business_categories()


def test_faults_can_be_set_read_and_cleared_over_http(sandbox_server, partner):
    url = sandbox_server.url + "/_sandbox/faults"
    plan = {"seed": 3, "faults": [{"kind": "error", "operation": "get_business_categories",
                                   "status": 500, "times": 2}]}
    armed = requests.post(url, json=plan, timeout=5)
    assert armed.status_code == 200
    assert armed.json()["data"]["faults"][0]["times"] == 2
    with pytest.raises(GatewayUnavailable) as failed:
        partner.get_business_categories()
    assert failed.value.http_status == 500
    state = requests.get(url, timeout=5).json()["data"]
    assert state["faults"][0]["times"] == 1
    assert state["count"] == 1
    assert state["applied"] == [{"kind": "error", "method": "GET", "path": CATEGORIES}]
    assert requests.delete(url, timeout=5).json()["data"]["faults"] == []
    assert partner.get_business_categories().categories


@pytest.mark.parametrize(("fault", "field"), [
    ({"kind": "meltdown"}, "faults[0].kind"),
    ({"kind": "error", "rate": 1.5}, "faults[0].rate"),
    ({"kind": "error", "status": 404}, "faults[0].status"),
    ({"kind": "error", "operation": "delete_everything"}, "faults[0].operation"),
    ({"kind": "latency", "seconds": -1}, "faults[0].seconds"),
    ({"kind": "error", "times": 0}, "faults[0].times"),
])
def test_a_bad_fault_plan_is_refused_field_by_field(sandbox_server, fault, field):
    response = requests.post(sandbox_server.url + "/_sandbox/faults",
                             json={"faults": [fault]}, timeout=5)
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errorDetails"]] == [field]
    assert sandbox_server.state.faults.describe()["faults"] == []


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
            assert client.create_onboarding(create_body()).merchantInfo.onboardingId
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
    with gunicorn("tests.sandbox.test_faults:gunicorn_sandbox()",
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
    assert client.create_onboarding(reset).merchantInfo.onboardingStatus == "INITIATED"
    assert already_used(client, lost) == ["externalOnboardingId", "panNumber"]
