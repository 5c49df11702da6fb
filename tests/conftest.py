"""Fixtures shared by the whole suite: a migrated database per test, the sandbox, the portal."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from argon2 import PasswordHasher, profiles
from hypothesis import settings as hypothesis_settings

from portal.app.factory import create_app
from portal.core.clock import Clock
from portal.core.config import Settings
from portal.core.migrate import upgrade
from tests.support.accounts import AuthActions
from tests.support.compiled import reuse_compiled_code
from tests.support.sandbox import RunningSandbox, serve_sandbox
from tests.support.settings import SANDBOX_CONFIG, settings_for
from tests.support.sleeps import WaitlessClock

#: Fixtures of the whole suite kept in tests/support.
pytest_plugins = ["tests.support.chromium", "tests.support.postgres", "tests.support.dialects",
                  "tests.support.object_store", "tests.support.key_pool", "tests.support.collector",
                  "tests.support.translations"]

#: The fuzz tests' examples: a fixed number each (set on the tests), drawn the same way on every
#: run in CI and never replayed from a local example database, so a run's cost and result are
#: the same each time; locally Hypothesis explores freely and remembers what failed.
hypothesis_settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                                     print_blob=True)
hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") == "true" else "dev")

reuse_compiled_code()  # no new app compiles a route's URL builder or a template again


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by what it needs, read from its fixtures (``make test-fast`` leaves out
    ``browser`` and ``postgres``): Chromium, or the PostgreSQL cluster, also as a parameter."""
    for item in items:
        needs = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        params = callspec.params.values() if callspec is not None else ()
        if "chromium" in needs:
            item.add_marker(pytest.mark.browser)
        if "postgres_cluster" in needs or "postgres_url" in needs or "postgresql" in params:
            item.add_marker(pytest.mark.postgres)


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head once per run; each test gets a copy."""
    path = tmp_path_factory.mktemp("db") / "template.db"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture
def database_url(migrated_template: Path, tmp_path: Path) -> str:
    """A fresh, migrated SQLite database for this test."""
    path = tmp_path / "portal.db"
    shutil.copy(migrated_template, path)
    return f"sqlite:///{path}"


@pytest.fixture(params=["sqlite", "postgresql"])
def any_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each kind the portal supports (the test runs once per kind)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.db'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture(scope="session")
def session_sandbox() -> Iterator[RunningSandbox]:
    """The suite's sandbox, served on a loopback port once per run (per xdist worker)."""
    with serve_sandbox(SANDBOX_CONFIG) as running:
        yield running


@pytest.fixture
def sandbox(session_sandbox: RunningSandbox) -> RunningSandbox:
    """The suite's sandbox as new: no records, its config's values, the clock at real time."""
    return session_sandbox.reset()


@pytest.fixture
def settings(database_url: str, sandbox: RunningSandbox, tmp_path: Path) -> Settings:
    """Testing settings pointing at the loopback sandbox and a per-test database."""
    return settings_for(database_url, sandbox.url, tmp_path)


@pytest.fixture
def app(settings: Settings):
    """The portal built for this test, with CSRF checks off (``csrf_app`` keeps them on)."""
    app = create_app(settings)
    app.config["WTF_CSRF_ENABLED"] = False
    return app


@pytest.fixture
def client(app):
    """A test client for the portal."""
    return app.test_client()


@pytest.fixture
def permissive_umask() -> Iterator[None]:
    """A umask that takes no permission away, so only the code's own modes protect a file."""
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


@pytest.fixture
def runner(app):
    """A CLI runner for the portal's commands."""
    return app.test_cli_runner()


# ---------------------------------------------------------------- accounts, sign-in, clock


@pytest.fixture(autouse=True)
def cheap_password_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Argon2 at its cheapest: tests sign in often and do not measure the hash's strength."""
    monkeypatch.setattr("portal.domain.users.passwords.hasher",
                        PasswordHasher.from_parameters(profiles.CHEAPEST))


@pytest.fixture(autouse=True)
def waitless_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock of the test's own, in real time, on which a gateway retry's backoff takes none."""
    monkeypatch.setattr("portal.core.clock.current", WaitlessClock())


@pytest.fixture
def csrf_app(settings: Settings):
    """The portal with CSRF checks on, as in production."""
    return create_app(settings)


@pytest.fixture
def csrf_client(csrf_app):
    """A test client for ``csrf_app``."""
    return csrf_app.test_client()


@pytest.fixture
def portal_clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """Freeze the portal's clock (portal.core.clock); ``portal_clock.advance(seconds)`` moves it."""
    fake = Clock(datetime(2026, 1, 5, 9, 0, tzinfo=UTC))
    monkeypatch.setattr("portal.core.clock.current", fake)
    return fake


@pytest.fixture
def auth(app, client) -> AuthActions:
    """``auth.login(role="ops")`` signs ``client`` in."""
    return AuthActions(app, client)
