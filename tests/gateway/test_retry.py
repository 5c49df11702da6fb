"""The retry policy as a table: method x outcome x attempt -> retry?, and the backoff delays."""

from __future__ import annotations

import random

import pytest

from portal.gateway.retry import NO_RETRY, RetryPolicy

POLICY = RetryPolicy(attempts=3, base_delay=0.25, max_delay=4.0)

RETRYABLE_STATUSES = [429, 500, 501, 502, 503, 504]
FINAL_STATUSES = [400, 401, 403, 404, 409]
TRANSPORT_ERRORS = ["timeout", "connection", "connect"]


def _rows() -> list[tuple[str, int | None, str | None, int, bool]]:
    """(method, status, error, attempt, expected) for every combination."""
    rows = []
    for method in ("GET", "PUT", "POST"):
        outcomes = [(s, None) for s in RETRYABLE_STATUSES + FINAL_STATUSES + [200]]
        outcomes += [(None, e) for e in TRANSPORT_ERRORS]
        for status, error in outcomes:
            for attempt in (1, 2, 3, 4):
                transient = status in RETRYABLE_STATUSES or error is not None
                expected = method in ("GET", "PUT") and transient and attempt < POLICY.attempts
                rows.append((method, status, error, attempt, expected))
    return rows


@pytest.mark.parametrize(("method", "status", "error", "attempt", "expected"), _rows())
def test_should_retry_table(
    method: str, status: int | None, error: str | None, attempt: int, expected: bool
) -> None:
    assert POLICY.should_retry(method, attempt, status=status, error=error) is expected


# The same table, spelled out by hand for the cases that matter most (a typo in _rows()
# would otherwise go unnoticed).
@pytest.mark.parametrize(
    ("method", "status", "error", "attempt", "expected"),
    [
        ("GET", 503, None, 1, True),
        ("GET", 503, None, 2, True),
        ("GET", 503, None, 3, False),  # the last attempt
        ("PUT", 429, None, 1, True),
        ("PUT", 504, None, 2, True),
        ("PUT", 501, None, 1, True),  # the real gateway's system error (GL-501-000)
        ("POST", 501, None, 1, False),
        ("GET", None, "timeout", 1, True),
        ("PUT", None, "connection", 1, True),
        ("GET", None, "connect", 2, True),
        ("GET", 400, None, 1, False),
        ("PUT", 401, None, 1, False),
        ("GET", 403, None, 1, False),
        ("GET", 404, None, 1, False),
        ("PUT", 409, None, 1, False),
        ("POST", 503, None, 1, False),  # the create is not safe to repeat
        ("POST", 429, None, 1, False),
        ("POST", None, "timeout", 1, False),
        ("POST", None, "connection", 1, False),
        ("POST", None, "connect", 1, False),
        ("get", 503, None, 1, True),  # method case does not matter
        ("post", None, "connect", 1, False),
        ("DELETE", 503, None, 1, False),  # only GET and PUT are ever repeated
        ("PATCH", 503, None, 1, False),
    ],
)
def test_should_retry_spelled_out(
    method: str, status: int | None, error: str | None, attempt: int, expected: bool
) -> None:
    assert POLICY.should_retry(method, attempt, status=status, error=error) is expected


@pytest.mark.parametrize("attempts", [1, 2, 5])
def test_no_retry_after_the_last_attempt(attempts: int) -> None:
    policy = RetryPolicy(attempts=attempts)
    allowed = [a for a in range(1, 10) if policy.should_retry("GET", a, status=503)]
    assert allowed == list(range(1, attempts))


def test_no_retry_policy_never_retries() -> None:
    assert not NO_RETRY.should_retry("GET", 1, status=503)
    assert not NO_RETRY.should_retry("PUT", 1, error="timeout")


# ---------------------------------------------------------------- delays


@pytest.mark.parametrize(
    ("attempt", "ceiling"),
    [(1, 0.25), (2, 0.5), (3, 1.0), (4, 2.0), (5, 4.0), (6, 4.0), (12, 4.0)],
)
def test_delay_is_full_jitter_under_a_capped_exponential(attempt: int, ceiling: float) -> None:
    assert min(POLICY.max_delay, POLICY.base_delay * 2 ** (attempt - 1)) == ceiling
    rng = random.Random(1234)
    delays = [POLICY.delay(attempt, rng) for _ in range(500)]
    assert all(0.0 <= d <= ceiling for d in delays)
    # full jitter: spread over the whole range, not bunched near the ceiling
    assert min(delays) < ceiling * 0.05
    assert max(delays) > ceiling * 0.95


def test_delay_draws_from_the_given_generator() -> None:
    ours, reference = random.Random(42), random.Random(42)
    for attempt in (1, 2, 3, 4, 5, 6):
        ceiling = min(4.0, 0.25 * 2 ** (attempt - 1))
        assert POLICY.delay(attempt, ours) == reference.uniform(0, ceiling)


def test_delay_is_reproducible_with_a_seed() -> None:
    first = [POLICY.delay(a, random.Random(7)) for a in (1, 2, 3)]
    second = [POLICY.delay(a, random.Random(7)) for a in (1, 2, 3)]
    assert first == second


@pytest.mark.parametrize(
    ("retry_after", "expected"),
    [(0.0, 0.0), (1.5, 1.5), (4.0, 4.0), (30.0, 4.0), (3600.0, 4.0), (-5.0, 0.0)],
)
def test_retry_after_is_honoured_and_capped(retry_after: float, expected: float) -> None:
    rng = random.Random(3)
    assert POLICY.delay(1, rng, retry_after=retry_after) == expected
    assert rng.random() == random.Random(3).random()  # no jitter drawn


def test_retry_after_cap_follows_the_policy() -> None:
    assert RetryPolicy(max_delay=10.0).delay(1, retry_after=30.0) == 10.0
    assert RetryPolicy(max_delay=10.0).delay(1, retry_after=7.0) == 7.0
