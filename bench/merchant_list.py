"""The merchants list, its search and the admin dashboard at 100,000 merchants vs 100, on SQLite
and on a throwaway PostgreSQL: median time of several runs, and SQL statements per request
(``bench.pages`` times them)."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Flask

from bench.business_names import business_name
from bench.measure import Row, info_row
from bench.pages import Portal, compared, portal
from bench.seed import seed_merchants, seeded_pan
from bench.stack import Bench, postgres
from portal.migrate import upgrade

SMALL, LARGE = 100, 100_000
SIZES = (SMALL, LARGE)
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
    rows = _measure("SQLite", [bench.portal_env(f"merchant-list-{size}") for size in SIZES])
    with postgres(len(SIZES)) as urls:
        if urls is None:
            return [*rows, info_row("List at 100,000: PostgreSQL (no server binaries)", 0, 0, "")]
        envs = []
        for size, url in zip(SIZES, urls, strict=True):
            upgrade(url)
            envs.append({**bench.portal_env(f"merchant-list-pg-{size}"), "DATABASE_URL": url})
        rows += _measure("PostgreSQL", envs)
    return rows


def _measure(database: str, envs: list[dict[str, str]]) -> list[Row]:
    """Both sizes' figures for every page."""
    portals: list[Portal] = [portal(env, size, _seed) for env, size in zip(envs, SIZES,
                                                                            strict=True)]
    return compared(f"List at 100,000 ({database})", PAGES, portals)


def _seed(app: Flask, size: int) -> None:
    seed_merchants(app, size)
