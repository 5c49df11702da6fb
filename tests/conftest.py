"""Fixtures shared by the whole suite: a migrated database per test, the sandbox, the portal."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import requests
from argon2 import PasswordHasher, profiles
from bs4 import BeautifulSoup
from cryptography.fernet import Fernet
from hypothesis import settings as hypothesis_settings
from pyotp import TOTP

from portal.app.factory import create_app
from portal.core import clock
from portal.core.clock import Clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.migrate import upgrade
from portal.core.models import Role
from portal.domain.users.accounts import create_user, find_user
from portal.gateway.payments.auth import KID_HEADER
from portal.sandbox.payments.routes import GATEWAY_KEY_PATH
from tests.support.compiled import reuse_compiled_code
from tests.support.sandbox import RunningSandbox, serve_sandbox, suite_dialect
from tests.support.sleeps import WaitlessClock

#: Fixtures of the whole suite kept in tests/support.
pytest_plugins = ["tests.support.chromium", "tests.support.postgres", "tests.support.dialects",
                  "tests.support.object_store", "tests.support.key_pool", "tests.support.collector"]

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

PARTNER_ID = "partner-test"
API_KEY = "test-api-key"
API_SECRET = "test-api-secret-0123456789"


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


#: The sandbox config of the suite: one partner with one key (SANDBOX_ANSWER_DIALECT's dialect).
SANDBOX_CONFIG = {"partners": [{"partnerId": PARTNER_ID, "keys": [
    {"apiKey": API_KEY, "apiSecret": API_SECRET, "active": True}]}], **suite_dialect()}


@pytest.fixture(scope="session")
def session_sandbox() -> Iterator[RunningSandbox]:
    """The suite's sandbox, served on a loopback port once per run (per xdist worker)."""
    with serve_sandbox(SANDBOX_CONFIG) as running:
        yield running


@pytest.fixture
def sandbox(session_sandbox: RunningSandbox) -> RunningSandbox:
    """The suite's sandbox as new: no records, its config's values, the clock at real time."""
    return session_sandbox.reset()


def with_payments(settings: Settings, sandbox: RunningSandbox, folder: Path) -> Settings:
    """``settings`` plus payments: a credentials key and the sandbox's published gateway key and
    its key id (payment bodies are encrypted to it, as on the real gateway)."""
    answer = requests.get(sandbox.url + GATEWAY_KEY_PATH, timeout=5)
    answer.raise_for_status()
    key_file = folder / "gateway_public.pem"
    key_file.write_text(answer.text, encoding="utf-8")
    return settings.with_changes(credentials_key=Fernet.generate_key().decode(),
                                 gateway_public_key_file=str(key_file),
                                 gateway_key_id=answer.headers[KID_HEADER])


def settings_for(database_url: str, sandbox_url: str, folder: Path) -> Settings:
    """Testing settings pointing at a sandbox and a database, uploads kept under ``folder``."""
    return Settings(
        env="testing",
        secret_key="test-secret-key",
        database_url=database_url,
        onboarding_url=sandbox_url,
        payments_url=sandbox_url,
        api_key=API_KEY,
        api_secret=API_SECRET,
        webhook_secrets=(API_SECRET,),
        gateway_is_sandbox=True,
        connect_timeout=2.0,
        read_timeout=5.0,
        upload_folder=str(folder / "uploads"),
        credentials_key="",
        kyc_encryption_keys=Fernet.generate_key().decode(),
        pan_index_key="test-pan-index-key",
    )


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

TEST_PASSWORD = "correct horse battery staple"


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


#: The authenticator secret of every admin the suite creates (admins must use two-step sign-in).
TEST_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


def enrol_authenticator(app, email: str, secret: str = TEST_TOTP_SECRET) -> None:
    """Give ``email`` a confirmed authenticator with ``secret``, as if they had enrolled."""
    with app.app_context():
        user = find_user(email)
        user.totp_secret = secret
        user.totp_enrolled_at = clock.utcnow()
        db.session.commit()


def current_code(app, email: str, secret: str = TEST_TOTP_SECRET) -> str:
    """The authenticator code for ``email`` at the portal's clock, reusable: the suite signs the
    same admin in several times within one 30-second step, so the replay guard's memory of the
    last step is cleared first (tests/auth/test_mfa.py tests that guard itself)."""
    with app.app_context():
        find_user(email).totp_last_step = None
        db.session.commit()
    return TOTP(secret).at(clock.utcnow())


def wrong_code(right: str) -> str:
    """Six digits that are not ``right``."""
    return "000000" if right != "000000" else "111111"


def pass_second_factor(app, client, email: str, response, code: str | None = None):
    """Answer the code page if ``response`` (to a sign-in) sent the client there."""
    location = response.headers.get("Location", "")
    if response.status_code != 302 or not location.startswith("/login/code"):
        return response
    return client.post(location, data=with_csrf_token(app, client, location, {
        "code": code or current_code(app, email)}))


def with_csrf_token(app, client, path: str, data: dict[str, str]) -> dict[str, str]:
    """``data`` plus the CSRF token of the form at ``path`` when ``app`` checks CSRF."""
    if not app.config.get("WTF_CSRF_ENABLED", True):
        return data
    field = BeautifulSoup(client.get(path).data, "html.parser").find(
        "input", {"name": "csrf_token"})
    return {**data, "csrf_token": field["value"]} if field else data


class AuthActions:
    """Sign in through the real forms as a user of a given role, created on first use; admins
    are created with an authenticator, and the helper types its current code."""

    def __init__(self, app, client) -> None:
        self._app = app
        self._client = client

    def create(self, role: str = "ops", email: str | None = None,
               password: str = TEST_PASSWORD, active: bool = True) -> str:
        """Create the user unless it exists, and return its email."""
        email = email or f"{role}@example.com"
        with self._app.app_context():
            created = find_user(email) is None
            if created:
                create_user(email, password, Role(role)).active = active
                db.session.commit()
        if created and role == Role.ADMIN:
            enrol_authenticator(self._app, email)
        return email

    def login(self, role: str = "ops", email: str | None = None,
              password: str = TEST_PASSWORD):
        """Post the sign-in form (and the code, for a user with an authenticator); the user is
        created first if needed."""
        email = self.create(role, email)
        response = self._client.post("/login", data=with_csrf_token(
            self._app, self._client, "/login", {"email": email, "password": password}))
        return pass_second_factor(self._app, self._client, email, response)

    def logout(self):
        """Post the sign-out form."""
        return self._client.post("/logout")


@pytest.fixture
def auth(app, client) -> AuthActions:
    """``auth.login(role="ops")`` signs ``client`` in."""
    return AuthActions(app, client)
