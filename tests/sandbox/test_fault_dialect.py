"""Error faults in the answer dialects: the docs' system fault is HTTP 501 GL-501-000
(samples-rev3/system-error.docs.json) whatever 5xx the plan names; a 429 with its Retry-After
in both dialects."""

from __future__ import annotations

import pytest
import requests

from portal.gateway.errors import GatewayUnavailable
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.sandbox.faulted_calls import CATEGORIES
from tests.sandbox.payloads import create_body
from tests.sandbox.support import client_of
from tests.support.sandbox import speak

SYSTEM_FAULT = {"status": "SYSTEM_ERROR", "message": "Declined by System",
                "reasonCode": "GL-501-000",
                "errors": {"displayMessage": "Declined by System",
                           "detailedMessage": "Declined by System"}}


@pytest.mark.parametrize("status", [500, 503, 504])
def test_a_system_fault_in_the_docs_is_501_gl_501_000(sandbox_server, status):
    speak(sandbox_server, "docs")
    sandbox_server.state.faults.set(Fault(FaultKind.ERROR, status=status))
    for path in (CATEGORIES, "/gl/v1/payments/gl_o-x/status"):
        response = requests.get(sandbox_server.url + path, timeout=5)
        assert (response.status_code, response.json()) == (501, SYSTEM_FAULT)
        assert "Retry-After" not in response.headers


def test_a_system_fault_in_the_docs_is_unavailable_and_not_applied(sandbox_server, partner):
    speak(sandbox_server, "docs")
    sandbox_server.state.faults.set(Fault(FaultKind.ERROR, operation="create_onboarding",
                                          times=1))
    body = create_body()
    with pytest.raises(GatewayUnavailable) as failed:
        partner.create_onboarding(body)
    assert (failed.value.http_status, failed.value.reason_code) == (501, "GL-501-000")
    assert failed.value.outcome_unknown
    speak(sandbox_server, "contract")
    assert partner.create_onboarding(body).record.merchantInfo.onboardingStatus == "INITIATED"


def test_the_contracts_system_fault_keeps_the_plans_status(sandbox_server):
    sandbox_server.state.faults.set(Fault(FaultKind.ERROR, status=501))
    response = requests.get(sandbox_server.url + CATEGORIES, timeout=5)
    assert (response.status_code, response.json()["reasonCode"]) == (501, "SYSTEM_ERROR")


def test_a_429_asks_to_retry_after_in_either_dialect(sandbox_server, answer_dialect):
    sandbox_server.state.faults.set(Fault(FaultKind.ERROR, status=429, retryAfter=7, times=1))
    response = requests.get(sandbox_server.url + CATEGORIES, timeout=5)
    assert (response.status_code, response.headers["Retry-After"]) == (429, "7")
    assert response.json()["reasonCode"] == "TOO_MANY_REQUESTS"
    unsigned = requests.get(sandbox_server.url + CATEGORIES, timeout=5)
    assert unsigned.status_code == 401  # the fault hit once, then the request is checked


def test_the_client_reads_a_429_as_unavailable_with_its_wait(sandbox_server, answer_dialect):
    sandbox_server.state.faults.set(Fault(FaultKind.ERROR, status=429, retryAfter=3,
                                          operation="create_onboarding", times=1))
    with pytest.raises(GatewayUnavailable) as busy:
        client_of(sandbox_server).create_onboarding(create_body())
    assert (busy.value.http_status, busy.value.retry_after) == (429, 3.0)
    assert not busy.value.outcome_unknown


def test_a_429_fault_is_armed_over_http_and_a_503_may_name_its_wait_too(sandbox_server):
    plan = {"faults": [{"kind": "error", "status": 429, "retryAfter": 2, "times": 1},
                       {"kind": "error", "status": 503, "retryAfter": 30, "times": 1}]}
    assert requests.post(sandbox_server.url + "/_sandbox/faults", json=plan,
                         timeout=5).status_code == 200
    first = requests.get(sandbox_server.url + CATEGORIES, timeout=5)
    second = requests.get(sandbox_server.url + CATEGORIES, timeout=5)
    assert [(r.status_code, r.headers["Retry-After"]) for r in (first, second)] == [
        (429, "2"), (503, "30")]


def test_a_wait_out_of_range_is_refused_by_name(sandbox_server):
    plan = {"faults": [{"kind": "error", "status": 429, "retryAfter": -1}]}
    answer = requests.post(sandbox_server.url + "/_sandbox/faults", json=plan, timeout=5)
    assert answer.status_code == 400
    assert [d["field"] for d in answer.json()["errorDetails"]] == ["faults[0].retryAfter"]
