"""What the transport adds for operators: the portal's request id on every call it makes, and
each call counted by operation and outcome with its time (over the loopback server)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from prometheus_client import REGISTRY

from portal.gateway.errors import GatewayUnavailable, ValidationFailed
from portal.gateway.tracing import REQUEST_ID_HEADER, request_id
from tests.gateway.support import calls, error_body, merchant


@pytest.fixture
def current_request() -> Iterator[str]:
    """A portal request in progress, with its id."""
    token = request_id.set("req-4f2a9c")
    try:
        yield "req-4f2a9c"
    finally:
        request_id.reset(token)


def timed(operation: str, outcome: str) -> float:
    """How many calls the latency histogram holds for ``operation`` and ``outcome``."""
    return REGISTRY.get_sample_value("portal_gateway_call_duration_seconds_count",
                                     {"operation": operation, "outcome": outcome}) or 0.0


def test_every_attempt_carries_the_portal_request_id(server, make_client, current_request):
    server.program(server.reply(503, error_body("SYSTEM_ERROR", "gl-1")),
                   server.reply(200, server.ok_body(merchant())))
    make_client(server.url).get_status("ob-1")
    assert [r.headers.get(REQUEST_ID_HEADER) for r in server.received] == [current_request] * 2


def test_a_call_outside_a_request_has_no_request_id(server, make_client):
    server.program(server.reply(200, server.ok_body(merchant())))
    make_client(server.url).get_status("ob-1")
    [received] = server.received
    assert REQUEST_ID_HEADER.lower() not in {name.lower() for name in received.headers}


def test_calls_are_counted_once_per_call_by_operation_and_outcome(server, make_client):
    before = {outcome: calls("get_status", outcome) for outcome in ("ok", "refused",
                                                                   "unavailable")}
    timed_before = timed("get_status", "ok")
    server.program(server.reply(503, error_body("SYSTEM_ERROR", "gl-1")),
                   server.reply(200, server.ok_body(merchant())),
                   server.reply(400, error_body("VALIDATION_ERROR", "gl-2")),
                   *[server.reply(503, error_body("SYSTEM_ERROR", "gl-3"))] * 3)
    client = make_client(server.url)
    client.get_status("ob-1")  # a retry, then ok: one call
    with pytest.raises(ValidationFailed):
        client.get_status("ob-1")
    with pytest.raises(GatewayUnavailable):
        client.get_status("ob-1")
    after = {outcome: calls("get_status", outcome) for outcome in before}
    assert {k: after[k] - before[k] for k in before} == {"ok": 1, "refused": 1, "unavailable": 1}
    assert timed("get_status", "ok") - timed_before == 1
