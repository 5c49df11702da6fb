"""Fault plans: which requests they hit, how often (rate, seed, times), set over HTTP."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from portal.gateway.errors import GatewayUnavailable
from portal.gateway.onboarding.client import OnboardingClient
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.sandbox.faulted_calls import CATEGORIES


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
