"""The merchants list, its search and the admin dashboard at 100,000 merchants vs 100, on SQLite
and on a throwaway PostgreSQL: median time of several runs, and SQL statements per request."""

from __future__ import annotations

import statistics
import time

from flask import Flask
from pyotp import TOTP
from sqlalchemy import text

from bench.measure import Row, info_row, ratio_row, statements
from bench.seed import seed_merchants
from bench.stack import OPS, PASSWORD, Bench, app_for, postgres
from portal import clock
from portal.auth.accounts import create_user
from portal.auth.totp import new_secret
from portal.db import db
from portal.migrate import upgrade
from portal.models.user import Role

SMALL, LARGE = 100, 100_000
SAMPLES = 5
STATEMENT_LIMIT = 6
ADMIN = "admin@bench.example"
#: Merchant 50 exists at both sizes: every search looks for it.
PAGES = {
    "list, first page": "/merchants",
    "list, page 5": "/merchants?page=5",
    "search by name": "/merchants?q=Seeded+shop+000050",
    "search by external id": "/merchants?q=seed-000050",
    "search by onboarding id": "/merchants?q=pg_onboard_seed000050",
    "search by full PAN": "/merchants?q=AAACS0050C",
    "admin dashboard": "/admin/",
}


def run(bench: Bench) -> list[Row]:
    """Measure every page at 100 merchants, seed up to 100,000 and measure again, per database."""
    rows = _measure("SQLite", bench.portal_env("merchant-list"))
    with postgres() as url:
        if url is None:
            return [*rows, info_row("List at 100,000: PostgreSQL (no server binaries)", 0, 0, "")]
        upgrade(url)
        rows += _measure("PostgreSQL", {**bench.portal_env("merchant-list-pg"),
                                        "DATABASE_URL": url})
    return rows


def _measure(database: str, env: dict[str, str]) -> list[Row]:
    app = app_for(env)
    app.config["WTF_CSRF_ENABLED"] = False
    clients = {OPS: app.test_client(), ADMIN: _admin(app)}
    clients[OPS].post("/login", data={"email": OPS, "password": PASSWORD})
    measured: list[dict[str, tuple[int, float]]] = []
    for target in (SMALL, LARGE):
        _seed(app, target)
        measured.append({name: _figures(app, clients[ADMIN if "admin" in path else OPS], path)
                         for name, path in PAGES.items()})
    small, large = measured
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


def _admin(app: Flask):
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


def _seed(app: Flask, target: int) -> None:
    """Seed up to ``target`` merchants, then refresh the planner's statistics."""
    with app.app_context():
        have = db.session.scalar(text("SELECT count(*) FROM merchants")) or 0
    seed_merchants(app, target - have)
    with app.app_context(), db.engine(app).connect() as conn:
        if conn.dialect.name == "postgresql":
            conn.execution_options(isolation_level="AUTOCOMMIT").execute(text("VACUUM ANALYZE"))
        else:
            conn.execute(text("ANALYZE"))
            conn.commit()


def _figures(app: Flask, client, path: str) -> tuple[int, float]:
    """Statements one request runs, and its median time over ``SAMPLES`` runs after a warm-up."""
    with statements(app) as seen:
        assert client.get(path).status_code == 200, path
    samples = []
    for _ in range(SAMPLES):
        start = time.perf_counter()
        client.get(path)
        samples.append(time.perf_counter() - start)
    return len(seen), statistics.median(samples)
