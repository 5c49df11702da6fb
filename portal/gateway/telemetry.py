"""Prometheus metrics of the calls to the gateway: how many, how they ended, how long they took.

Recorded once per call by the transport (retries included in the time), so every onboarding
and payments operation is counted in the same place.
"""

from __future__ import annotations

from prometheus_client import Counter, Histogram

from portal.gateway.errors import GatewayError, GatewayUnavailable

CALLS = Counter("portal_gateway_calls_total", "Calls to the gateway by operation and outcome",
                ["operation", "outcome"])
LATENCY = Histogram("portal_gateway_call_duration_seconds",
                    "Time of a call to the gateway, retries included", ["operation", "outcome"],
                    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60))


def outcome_of(error: BaseException | None) -> str:
    """How a call ended, in one word: ok, refused (the gateway said no), unavailable (5xx,
    429, no answer), unknown (a 2xx we could not read: it may have been applied), error."""
    if error is None:
        return "ok"
    if isinstance(error, GatewayUnavailable):
        return "unavailable"
    if isinstance(error, GatewayError) and error.outcome_unknown:
        return "unknown"
    if isinstance(error, GatewayError):
        return "refused"
    return "error"


def observe_call(operation: str, error: BaseException | None, seconds: float) -> None:
    """Count one finished call and its time."""
    outcome = outcome_of(error)
    CALLS.labels(operation, outcome).inc()
    LATENCY.labels(operation, outcome).observe(seconds)
