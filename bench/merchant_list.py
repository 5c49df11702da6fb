"""The merchants list with 10,000 merchants vs 100: SQL statements per request and p50 time."""

from __future__ import annotations

import statistics
import time

from bench.measure import Row, ratio_row, statements
from bench.seed import seed_merchants
from bench.stack import OPS, PASSWORD, Bench, app_for

SAMPLES = 40
STATEMENT_LIMIT = 6


def run(bench: Bench) -> list[Row]:
    """Seed 100 merchants and measure, then 9,900 more and measure again."""
    app = app_for(bench.portal_env("merchant-list"))
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    client.post("/login", data={"email": OPS, "password": PASSWORD})
    measured = []
    for count in (100, 9_900):
        seed_merchants(app, count)
        with statements(app) as seen:
            assert client.get("/merchants").status_code == 200
        measured.append((len(seen), _p50(client)))
    (small_sql, small_time), (large_sql, large_time) = measured
    return [Row("Merchants list: SQL statements per request, 10,000 vs 100 merchants",
                large_sql, small_sql, "stmts", f"equal, <= {STATEMENT_LIMIT}",
                large_sql == small_sql <= STATEMENT_LIMIT),
            ratio_row("Merchants list: p50 time, 10,000 vs 100 merchants",
                      large_time * 1000, small_time * 1000, "ms", 1.5)]


def _p50(client) -> float:
    samples = []
    for _ in range(SAMPLES):
        start = time.perf_counter()
        client.get("/merchants")
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)
