"""What each fault kind does to a call through the OnboardingClient against the served sandbox."""

from __future__ import annotations

import time

import pytest
import requests

from portal.gateway.errors import GatewayUnavailable, ValidationFailed
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.transport import Timeouts
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.sandbox.faulted_calls import CATEGORIES, already_used
from tests.sandbox.payloads import business, create_body
from tests.sandbox.support import KEY, SECRET
from tests.support.sandbox import RunningSandbox
from tests.support.sleeps import SleepRecorder


@pytest.fixture
def sleeps() -> SleepRecorder:
    """The backoff delays the retrying client asked for."""
    return SleepRecorder()


@pytest.fixture
def retrying(sandbox_server: RunningSandbox, sleeps: SleepRecorder) -> OnboardingClient:
    """Partner p1's client with the default retry policy and no real backoff."""
    return OnboardingClient(sandbox_server.url, KEY, SECRET, sleep=sleeps)


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
    assert retrying.create_onboarding(body).record.merchantInfo.partnerOnboardingId == (
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
    assert retrying.create_onboarding(body).record.merchantInfo.onboardingStatus == "INITIATED"


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
    merchant = client.update_business_details(onboarding_id, business()).record
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


def test_a_request_held_across_a_reset_is_dropped_not_applied(sandbox_server, partner,
                                                              monkeypatch):
    sandbox_server.state.faults.set(Fault(FaultKind.LATENCY, seconds=20,
                                          operation="create_onboarding"))
    # the next test's reset comes while the create is held, instead of the wait
    monkeypatch.setattr(time, "sleep", lambda seconds: sandbox_server.reset())
    with pytest.raises(GatewayUnavailable) as failed:
        partner.create_onboarding(create_body())
    assert failed.value.outcome_unknown
    assert sandbox_server.backend.received_requests() == []  # not applied to the new records
