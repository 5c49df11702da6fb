"""Pages timed at two sizes of one database (100 rows and 100,000): a portal per size, each
with its signed-in clients, the statements one request of a page runs and its median time, and
the table rows that compare the sizes. The merchants list and the payments list share it.

Each size has its own database, both seeded before any timing, and the samples alternate
between them, so a neighbour's load that comes and goes weighs on both sides alike. A page's
whole body is read (an export streams its rows while it is read)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask
from flask.testing import FlaskClient
from pyotp import TOTP
from sqlalchemy import text

from bench.measure import Row, info_row, ratio_row, statements
from bench.stack import OPS, PASSWORD, Bench, app_for, postgres
from portal.core import clock
from portal.core.db import db
from portal.core.migrate import upgrade
from portal.core.models.user import Role
from portal.domain.users.accounts import create_user
from portal.domain.users.totp import new_secret

SAMPLES = 9
#: The most statements a list page may run (sign-in checks included), at any size.
STATEMENT_LIMIT = 6
#: The most a page at 100,000 rows may take, as a multiple of the same page at 100.
TIME_RATIO = 1.5
ADMIN = "admin@bench.example"


@dataclass(frozen=True)
class Portal:
    """One portal of the comparison: its app and a signed-in client per page kind."""

    app: Flask
    ops: FlaskClient
    admin: FlaskClient

    def client(self, path: str) -> FlaskClient:
        """The client that may open ``path``."""
        return self.admin if path.startswith("/admin") else self.ops


def portal(env: dict[str, str], size: int, seed: Callable[[Flask, int], None]) -> Portal:
    """A portal on the database of ``env`` seeded by ``seed`` with ``size`` rows, its clients
    signed in, the planner's statistics fresh."""
    app = app_for(env)
    app.config["WTF_CSRF_ENABLED"] = False
    ops = app.test_client()
    ops.post("/login", data={"email": OPS, "password": PASSWORD})
    signed_in = Portal(app, ops, _admin(app))
    seed(app, size)
    analyse(app)
    return signed_in


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


def analyse(app: Flask) -> None:
    """Refresh the planner's statistics after a seed."""
    with app.app_context(), db.engine(app).connect() as conn:
        if conn.dialect.name == "postgresql":
            conn.execution_options(isolation_level="AUTOCOMMIT").execute(text("VACUUM ANALYZE"))
        else:
            conn.execute(text("ANALYZE"))
            conn.commit()


def _get(portal_: Portal, path: str) -> None:
    answer = portal_.client(path).get(path)
    answer.get_data()
    assert answer.status_code == 200, (path, answer.status_code)


def figures(portals: list[Portal], path: str) -> list[tuple[int, float]]:
    """For each portal, the statements one request of ``path`` runs and its median time over
    ``SAMPLES`` runs after a warm-up; each round times both portals, first one then the other
    in turn."""
    counts = []
    for each in portals:
        with statements(each.app) as seen:
            _get(each, path)
        counts.append(len(seen))
    samples: list[list[float]] = [[] for _ in portals]
    for round_ in range(SAMPLES):
        order = list(enumerate(portals))
        for i, each in order[::-1] if round_ % 2 else order:
            start = time.perf_counter()
            _get(each, path)
            samples[i].append(time.perf_counter() - start)
    return [(count, statistics.median(times)) for count, times in zip(counts, samples,
                                                                      strict=True)]


def compared(title: str, pages: dict[str, str], portals: list[Portal],
             limit: int = STATEMENT_LIMIT) -> list[Row]:
    """The rows of ``pages`` at the large size against the small one: the most statements per
    request (equal per page at both sizes, at most ``limit``), then each page's time."""
    small: dict[str, tuple[int, float]] = {}
    large: dict[str, tuple[int, float]] = {}
    for name, path in pages.items():
        small[name], large[name] = figures(portals, path)
    counts_equal = all(small[n][0] == large[n][0] for n in pages)
    most = max(count for count, _ in large.values())
    rows = [Row(f"{title}: SQL statements per request, most of {len(pages)} pages, 100,000 "
                f"vs 100", most, max(count for count, _ in small.values()), "stmts",
                f"equal per page, <= {limit}", counts_equal and most <= limit)]
    rows += [ratio_row(f"{title}: {name}, median of {SAMPLES}", large[name][1] * 1000,
                       small[name][1] * 1000, "ms", TIME_RATIO)
             for name in pages]
    return rows


#: The two sizes every list is timed at.
SIZES = (100, 100_000)


def at_both_sizes(bench: Bench, name: str, title: str, pages: dict[str, str],
                  seed: Callable[[Flask, int], None],
                  limit: int = STATEMENT_LIMIT) -> list[Row]:
    """``pages`` at 100 and at 100,000 rows seeded by ``seed``, on a fresh SQLite database
    per size, then on a throwaway PostgreSQL (a row says so when no server binaries are
    installed); ``name`` names the databases, ``title`` the rows."""
    def measure(database: str, envs: list[dict[str, str]]) -> list[Row]:
        portals = [portal(env, size, seed) for env, size in zip(envs, SIZES, strict=True)]
        return compared(f"{title} ({database})", pages, portals, limit)

    rows = measure("SQLite", [bench.portal_env(f"{name}-{size}") for size in SIZES])
    with postgres(len(SIZES)) as urls:
        if urls is None:
            return [*rows, info_row(f"{title}: PostgreSQL (no server binaries)", 0, 0, "")]
        envs = []
        for size, url in zip(SIZES, urls, strict=True):
            upgrade(url)
            envs.append({**bench.portal_env(f"{name}-pg-{size}"), "DATABASE_URL": url})
        return [*rows, *measure("PostgreSQL", envs)]
