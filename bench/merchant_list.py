"""The merchants list, its search and the admin dashboard at 100,000 merchants vs 100, on SQLite
and on a throwaway PostgreSQL: median time of several runs, and SQL statements per request.

Each size has its own database, both seeded before any timing, and the samples alternate
between them, so a neighbour's load that comes and goes weighs on both sides alike."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from urllib.parse import urlencode

from flask import Flask
from flask.testing import FlaskClient
from pyotp import TOTP
from sqlalchemy import text

from bench.business_names import business_name
from bench.measure import Row, info_row, ratio_row, statements
from bench.seed import seed_merchants, seeded_pan
from bench.stack import OPS, PASSWORD, Bench, app_for, postgres
from portal.auth.accounts import create_user
from portal.auth.totp import new_secret
from portal.core import clock
from portal.core.db import db
from portal.core.migrate import upgrade
from portal.core.models.user import Role

SMALL, LARGE = 100, 100_000
SIZES = (SMALL, LARGE)
SAMPLES = 9
STATEMENT_LIMIT = 6
ADMIN = "admin@bench.example"
#: Merchant 50 exists at both sizes: every search looks for it.
PAGES = {
    "list, first page": "/merchants",
    "list, page 5": "/merchants?page=5",
    "search by name": f"/merchants?{urlencode({'q': business_name(50)})}",
    "search by external id": "/merchants?q=seed-000050",
    "search by onboarding id": "/merchants?q=pg_onboard_seed000050",
    "search by full PAN": f"/merchants?q={seeded_pan(50)}",
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


@dataclass(frozen=True)
class _Portal:
    """One portal of the comparison: its app and a signed-in client per page kind."""

    app: Flask
    ops: FlaskClient
    admin: FlaskClient

    def client(self, path: str) -> FlaskClient:
        """The client that may open ``path``."""
        return self.admin if path.startswith("/admin") else self.ops


def _measure(database: str, envs: list[dict[str, str]]) -> list[Row]:
    """Both sizes' figures for every page, the samples of each page alternating sizes."""
    portals = [_portal(env, size) for env, size in zip(envs, SIZES, strict=True)]
    small: dict[str, tuple[int, float]] = {}
    large: dict[str, tuple[int, float]] = {}
    for name, path in PAGES.items():
        small[name], large[name] = _figures(portals, path)
    counts_equal = all(small[n][0] == large[n][0] for n in PAGES)
    most = max(count for count, _ in large.values())
    rows = [Row(f"List at 100,000 ({database}): SQL statements per request, most of "
                f"{len(PAGES)} pages, 100,000 vs 100", most,
                max(count for count, _ in small.values()), "stmts",
                f"equal per page, <= {STATEMENT_LIMIT}",
                counts_equal and most <= STATEMENT_LIMIT)]
    rows += [ratio_row(f"List at 100,000 ({database}): {name}, median of {SAMPLES}",
                       large[name][1] * 1000, small[name][1] * 1000, "ms", 1.5)
             for name in PAGES]
    return rows


def _portal(env: dict[str, str], size: int) -> _Portal:
    """A portal on the database of ``env`` seeded with ``size`` merchants, its clients signed
    in."""
    app = app_for(env)
    app.config["WTF_CSRF_ENABLED"] = False
    ops = app.test_client()
    ops.post("/login", data={"email": OPS, "password": PASSWORD})
    portal = _Portal(app, ops, _admin(app))
    _seed(app, size)
    return portal


def _admin(app: Flask) -> FlaskClient:
    """A test client signed in as an admin, with an authenticator (admins must use one)."""
    with app.app_context():
        admin = create_user(ADMIN, PASSWORD, Role.ADMIN)
        admin.totp_secret = new_secret()
        admin.totp_enrolled_at = clock.utcnow()
        db.session.commit()
        secret = admin.totp_secret
    client = app.test_client()
    answer = client.post("/login", data={"email": ADMIN, "password": PASSWORD})
    client.post(answer.headers["Location"], data={"code": TOTP(secret).now()})
    return client


def _seed(app: Flask, size: int) -> None:
    """Seed ``size`` merchants, then refresh the planner's statistics."""
    seed_merchants(app, size)
    with app.app_context(), db.engine(app).connect() as conn:
        if conn.dialect.name == "postgresql":
            conn.execution_options(isolation_level="AUTOCOMMIT").execute(text("VACUUM ANALYZE"))
        else:
            conn.execute(text("ANALYZE"))
            conn.commit()


def _figures(portals: list[_Portal], path: str) -> list[tuple[int, float]]:
    """For each portal, the statements one request of ``path`` runs and its median time over
    ``SAMPLES`` runs after a warm-up; each round times both portals, first one then the other
    in turn."""
    counts = []
    for portal in portals:
        with statements(portal.app) as seen:
            assert portal.client(path).get(path).status_code == 200, path
        counts.append(len(seen))
    samples: list[list[float]] = [[] for _ in portals]
    for round_ in range(SAMPLES):
        order = list(enumerate(portals))
        for i, portal in order[::-1] if round_ % 2 else order:
            client = portal.client(path)
            start = time.perf_counter()
            client.get(path)
            samples[i].append(time.perf_counter() - start)
    return [(count, statistics.median(times)) for count, times in zip(counts, samples,
                                                                      strict=True)]
