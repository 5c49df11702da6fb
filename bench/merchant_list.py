"""The merchants list, its search and the admin dashboard at 100,000 merchants vs 100, on SQLite
and on a throwaway PostgreSQL: median time of several runs, and SQL statements per request
(``bench.pages`` times them)."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Flask

from bench.business_names import business_name
from bench.measure import Row
from bench.pages import at_both_sizes
from bench.seed import seed_merchants, seeded_pan
from bench.stack import Bench

#: Merchant 50 exists at both sizes: every search looks for it.
PAGES = {
    "list, first page": "/merchants",
    "list, page 5": "/merchants?page=5",
    "search by name": f"/merchants?{urlencode({'q': business_name(50)})}",
    "search by external id": "/merchants?q=seed-000050",
    "search by onboarding id": "/merchants?q=pg_onboard_seed000050",
    "search by full PAN": f"/merchants?q={seeded_pan(50)}",
    "no progress lately (the dashboard's link)": "/merchants?stale=y",
    "admin dashboard": "/admin/",
}


def run(bench: Bench) -> list[Row]:
    """Measure every page at 100 and at 100,000 merchants, on SQLite then PostgreSQL."""
    return at_both_sizes(bench, "merchant-list", "List at 100,000", PAGES, _seed)


def _seed(app: Flask, size: int) -> None:
    seed_merchants(app, size)
