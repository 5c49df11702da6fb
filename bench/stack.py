"""The processes a benchmark talks to: the sandbox and gunicorn, each in a subprocess, a fresh
migrated SQLite database per portal and a throwaway PostgreSQL (the tests' cluster), all
configured through environment variables."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import requests
from bs4 import BeautifulSoup
from cryptography.fernet import Fernet

from portal.app.factory import create_app
from portal.core.config import settings_from_env
from portal.core.config_fields import ROOT
from portal.core.db import db
from portal.core.migrate import upgrade
from portal.core.models.user import Role
from portal.domain.users.accounts import create_user
from portal.gateway.onboarding.client import OnboardingClient
from tests.support.postgres import Cluster, find_bindir

API_KEY = "bench-api-key"
API_SECRET = "bench-api-secret-0123456789"  # noqa: S105 - a local sandbox key
PASSWORD = "bench password, not a secret"  # noqa: S105 - a throwaway user
OPS = "ops@bench.example"


def free_port() -> int:
    """A loopback port nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(url: str, seconds: float = 30) -> None:
    """Wait until ``url`` answers at all."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            requests.get(url, timeout=1)
            return
        except requests.RequestException:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@contextmanager
def process(args: list[str], ready_url: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """Run ``args`` from the project root until the block ends; yield once ``ready_url`` answers."""
    proc = subprocess.Popen(args, cwd=ROOT, env={**os.environ, **(env or {})},  # noqa: S603
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(ready_url)
        yield ready_url
    finally:
        proc.terminate()
        proc.wait(timeout=15)


@contextmanager
def sandbox(workdir: Path, **settings: object) -> Iterator[str]:
    """``python -m portal.sandbox`` with one partner key (and any other config ``settings``);
    yields its base URL."""
    config = workdir / "sandbox.json"
    config.write_text(json.dumps({"partners": [{"partnerId": "partner-bench", "keys": [
        {"apiKey": API_KEY, "apiSecret": API_SECRET, "active": True}]}], **settings}))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with process([sys.executable, "-m", "portal.sandbox", "--port", str(port),
                  "--config", str(config)], f"{url}/openapi.json"):
        yield url


@contextmanager
def postgres(databases: int = 1) -> Iterator[list[str] | None]:
    """``databases`` empty databases in one throwaway PostgreSQL cluster (the tests' helper:
    initdb in a temporary folder, fsync off); None where no server binaries are installed."""
    bindir = find_bindir()
    if bindir is None:
        yield None
        return
    cluster = Cluster(bindir)
    cluster.start()
    try:
        with ExitStack() as stack:
            yield [stack.enter_context(cluster.database()) for _ in range(databases)]
    finally:
        cluster.stop()


@dataclass(frozen=True)
class Bench:
    """What every suite shares: a scratch folder and one running sandbox."""

    workdir: Path
    sandbox_url: str

    def portal_env(self, name: str) -> dict[str, str]:
        """Environment variables of a portal on a freshly migrated SQLite database."""
        database = f"sqlite:///{self.workdir / name}.db"
        upgrade(database)
        return {"PORTAL_ENV": "development", "SECRET_KEY": "bench-secret-key",
                "DATABASE_URL": database, "GATEWAY_ONBOARDING_URL": self.sandbox_url,
                "GATEWAY_API_KEY": API_KEY, "GATEWAY_API_SECRET": API_SECRET,
                "GATEWAY_IS_SANDBOX": "true",
                "KYC_ENCRYPTION_KEYS": Fernet.generate_key().decode(),
                "PAN_INDEX_KEY": "bench-pan-index-key",
                "UPLOAD_FOLDER": str(self.workdir / f"{name}-uploads")}

    def client(self) -> OnboardingClient:
        """A client of the sandbox, as the partner."""
        return OnboardingClient(self.sandbox_url, API_KEY, API_SECRET)


def app_for(env: dict[str, str]):
    """The portal built in this process from ``env``, with an ops user to sign in as."""
    app = create_app(settings_from_env(env))
    with app.app_context():
        create_user(OPS, PASSWORD, Role.OPS)
        db.session.commit()
    return app


@contextmanager
def gunicorn(env: dict[str, str], workers: int = 2) -> Iterator[str]:
    """``gunicorn app:app`` with ``workers`` workers on ``env``; yields its base URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with process([str(Path(sys.executable).parent / "gunicorn"), "--bind", f"127.0.0.1:{port}",
                  "--workers", str(workers), "app:app"], f"{url}/healthz", env):
        yield url


def csrf_token(html: bytes) -> str:
    """The CSRF token of the first form on a page."""
    field = BeautifulSoup(html, "html.parser").find("input", attrs={"name": "csrf_token"})
    assert field is not None, "no CSRF token on the page"
    return str(field["value"])


def signed_in(url: str) -> requests.Session:
    """A browser session signed in to the portal at ``url`` as the ops user."""
    session = requests.Session()
    token = csrf_token(session.get(f"{url}/login", timeout=10).content)
    response = session.post(f"{url}/login", data={"email": OPS, "password": PASSWORD,
                                                 "csrf_token": token}, timeout=10)
    response.raise_for_status()
    return session
