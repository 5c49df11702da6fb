"""A throwaway PostgreSQL cluster for the test run: initdb in a temporary folder, loopback port.

The server binaries come from Debian's ``postgresql`` package, which ``scripts/test.sh``
installs when missing. As root the cluster runs as the ``postgres`` system user, because
PostgreSQL refuses to run as root.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

from portal.core.migrate import upgrade


def find_bindir() -> Path | None:
    """The newest installed PostgreSQL server's bin folder, if any."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    found = shutil.which("initdb")
    path = candidates[-1] if candidates else found
    return Path(path).parent if path else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    """One running throwaway cluster; ``database()`` makes a fresh database in it."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="portal-pg-"))
        self.port = _free_port()
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self._as_user = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        subprocess.run([*self._as_user, *args], check=True, capture_output=True)  # noqa: S603

    def start(self) -> None:
        """initdb and start the server on a loopback port, trusting local connections."""
        data = self.folder / "data"
        self._run(str(self.bindir / "initdb"), "-D", str(data), "-U", "portal", "-A", "trust",
                  "-E", "UTF8", "--no-sync")
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -F "
                   "-c max_connections=100")
        self._run(str(self.bindir / "pg_ctl"), "-D", str(data), "-o", options, "-l",
                  str(self.folder / "server.log"), "-w", "start")

    def stop(self) -> None:
        """Stop the server and delete its folder."""
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.folder / "data"), "-m",
                      "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """SQLAlchemy URL of ``database`` in this cluster."""
        return f"postgresql+psycopg://portal@127.0.0.1:{self.port}/{database}"

    @contextmanager
    def database(self) -> Iterator[str]:
        """Create an empty database for one test and drop it afterwards."""
        name = "test_" + uuid.uuid4().hex[:12]
        admin = f"postgresql://portal@127.0.0.1:{self.port}/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        try:
            yield self.url(name)
        finally:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL server for the run (one per xdist worker, each in its own folder
    on its own port); skipped where none can be had, except in CI."""
    bindir = find_bindir()
    if bindir is None:
        message = "PostgreSQL server binaries not found (scripts/test.sh installs postgresql)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    cluster = Cluster(bindir)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> Iterator[str]:
    """An empty PostgreSQL database for this test."""
    with postgres_cluster.database() as url:
        yield url


def shared_postgres() -> Callable[..., str]:
    """A ``database_url`` fixture for tests whose processes (workers, gunicorn, hosts) share one
    database: ``database_url = shared_postgres()`` in the module or folder's conftest."""

    @pytest.fixture(name="database_url")
    def database_url(postgres_url: str) -> str:
        """An empty PostgreSQL database, migrated: several processes share it."""
        upgrade(postgres_url)
        return postgres_url

    return database_url
