"""When to retry a gateway call, and how long to wait: pure functions, tested with a table."""

from __future__ import annotations

import random
from dataclasses import dataclass

#: Methods that are safe to repeat. The create POST (and every payments POST) is not.
IDEMPOTENT_METHODS = frozenset({"GET", "PUT"})
def safe_to_repeat(method: str) -> bool:
    """Whether a call by ``method`` may be sent again: its effect is the same however often it
    arrives."""
    return method.upper() in IDEMPOTENT_METHODS


#: Answers worth another try: too many requests, and every 5xx alike (the gateway answers its
#: system errors with 501, response-codes.mdx; docs/gateway-contract.md, "Reading answers").
RETRYABLE_STATUSES = frozenset({429, 500, 501, 502, 503, 504})


@dataclass(frozen=True)
class RetryPolicy:
    """Capped exponential backoff: with full jitter, or with ``spread`` (0.2: each wait within
    20% of its doubling, as the payments API's rate-limits page asks)."""

    attempts: int = 3
    base_delay: float = 0.25
    max_delay: float = 4.0
    spread: float | None = None

    def should_retry(
        self, method: str, attempt: int, *, status: int | None = None, error: str | None = None
    ) -> bool:
        """Whether attempt number ``attempt`` (1-based) may be followed by another.

        ``error`` names a transport failure (``"connect"``, ``"timeout"``, ``"connection"``).
        Only GET and PUT are ever repeated; a POST (the create) never is, whatever happened.
        """
        if attempt >= self.attempts:
            return False
        if not safe_to_repeat(method):
            return False
        if error is not None:
            return True
        return status in RETRYABLE_STATUSES

    def delay(self, attempt: int, rng: random.Random | None = None,
              retry_after: float | None = None) -> float:
        """Seconds to wait after attempt ``attempt``: full jitter under a capped exponential."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_delay)
        ceiling = min(self.max_delay, self.base_delay * 2 ** (attempt - 1))
        if self.spread is not None:
            return (rng or random).uniform(ceiling * (1 - self.spread),
                                           ceiling * (1 + self.spread))
        return (rng or random).uniform(0, ceiling)


NO_RETRY = RetryPolicy(attempts=1)
#: The payments API's rate-limits page: back off 1, 2, 4, 8, 16 s, each within 20%, honouring
#: ``Retry-After`` (docs/gateway-contract.md, revision 4, "Rate limits").
RATE_LIMITED = RetryPolicy(attempts=3, base_delay=1.0, max_delay=16.0, spread=0.2)
