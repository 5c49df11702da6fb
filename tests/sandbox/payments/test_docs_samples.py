"""Each payments sample of docs/gateway-contract.md, "Reading answers" (samples-rev3) has the keys,
nesting, types,
status words and HTTP status of the answer the sandbox gives in its docs dialect."""

from __future__ import annotations

import pytest
import requests

from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.sandbox.docs_samples import same_shape, sample
from tests.sandbox.payments.raw_calls import capture_body, paid, raw
from tests.sandbox.payments.support import initiate_body
from tests.support.sandbox import speak


@pytest.fixture(autouse=True)
def docs(sandbox):
    """The payments sandbox speaking the docs."""
    return speak(sandbox, "docs")


def matches(answer: requests.Response, name: str) -> bool:
    """The answer has the sample's HTTP status and shape."""
    assert answer.status_code == sample(name)["http"], answer.text
    return same_shape(answer.json(), name)


def test_initiate(client, http):
    assert matches(raw(client, http, "initiate", initiate_body()), "initiate-minimal.openapi.json")


def test_payment_status_after_a_capture(client, http):
    """The docs' status answer, as revision 4 reads the sources: the envelope says how the call
    went (``SUCCESS``, status-envelope-success.openapi.json) under a gid of its own, and ``data``
    names the order (``data.gid``) and carries the authorisation's ``reasonCode``, as openapi's
    examples do; the rest is payment-status.docs.json's shape."""
    gid = paid(client, http)
    client.capture(gid, "CAPTURE1")
    answer = raw(client, http, "status", id=gid)
    assert answer.status_code == sample("payment-status.docs.json")["http"]
    body = answer.json()
    assert (body["status"], body["data"]["gid"]) == ("SUCCESS", gid) and body["gid"] != gid
    as_rev3 = {**body, "status": body["data"]["status"],
               "data": {k: v for k, v in body["data"].items() if k not in ("gid", "reasonCode")}}
    assert same_shape(as_rev3, "payment-status.docs.json")


def test_capture(client, http):
    answer = raw(client, http, "capture", capture_body("CAPTURE1"), gid=paid(client, http))
    assert matches(answer, "capture-success.docs.json")


def test_capture_declined_with_a_2xx(client, http):
    answer = raw(client, http, "capture", capture_body("CAPTURE1"),
                 gid=paid(client, http, "4000000000000259"))
    assert matches(answer, "capture-decline-2xx.docs.json")


def test_capture_of_an_unknown_payment(client, http):
    answer = raw(client, http, "capture", capture_body("CAPTURE1"), gid="gl_o-unknown")
    assert matches(answer, "capture-not-found.docs.json")


def test_full_refund(client, http):
    gid = paid(client, http)
    client.capture(gid, "CAPTURE1")
    answer = raw(client, http, "refund", {"merchantTxnId": "REFUND1", "refundType": "F"},
                 gid=gid)
    assert matches(answer, "refund.docs.json")


def test_system_fault(client, http, sandbox):
    sandbox.state.faults.set(Fault(FaultKind.ERROR, operation="capture", times=1))
    answer = raw(client, http, "capture", capture_body("CAPTURE1"), gid=paid(client, http))
    assert matches(answer, "system-error.docs.json")
