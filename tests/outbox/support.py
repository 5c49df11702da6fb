"""Shared by the outbox and concurrency tests: a migrated database of each kind, drains, counts."""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from flask import Flask
from sqlalchemy import select

from portal.core.clients import onboarding_client
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.migrate import upgrade
from portal.core.models.outbox import OutboxItem
from portal.domain.onboarding.outbox.drain import DrainReport, drain
from tests.support.postgres import Cluster


def _admin(cluster: Cluster) -> str:
    return f"postgresql://portal@127.0.0.1:{cluster.port}/postgres"


@pytest.fixture(scope="session")
def migrated_postgres_template(postgres_cluster: Cluster) -> str:
    """The name of a PostgreSQL database migrated to head once per run; tests get copies."""
    name = "migrated_" + uuid.uuid4().hex[:12]
    with psycopg.connect(_admin(postgres_cluster), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    upgrade(postgres_cluster.url(name))
    with psycopg.connect(_admin(postgres_cluster), autocommit=True) as conn:
        # a copy needs the template without sessions; the migration's pool may keep one
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     "WHERE datname = %s", (name,))
    return name


@pytest.fixture(params=["sqlite", "postgresql"])
def migrated_any_database_url(request: pytest.FixtureRequest, migrated_template: Path,
                              tmp_path: Path) -> Iterator[str]:
    """A fresh database migrated to head, of each kind the portal supports (one run each)."""
    if request.param == "sqlite":
        path = tmp_path / "portal.db"
        shutil.copy(migrated_template, path)
        yield f"sqlite:///{path}"
        return
    cluster: Cluster = request.getfixturevalue("postgres_cluster")
    template = request.getfixturevalue("migrated_postgres_template")
    name = "test_" + uuid.uuid4().hex[:12]
    with psycopg.connect(_admin(cluster), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    try:
        yield cluster.url(name)
    finally:
        with psycopg.connect(_admin(cluster), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def database_url(migrated_any_database_url: str) -> str:
    """The portal's database: migrated, SQLite or PostgreSQL (overrides the SQLite-only one)."""
    return migrated_any_database_url


@pytest.fixture
def app(app: Flask) -> Iterator[Flask]:
    """The portal, its connection pool closed after the test (PostgreSQL counts them)."""
    yield app
    db.engine(app).dispose()


def run_drain(app: Flask) -> DrainReport:
    """One drain of the outbox in its own app context, as the sync runs it."""
    with app.app_context():
        return drain(onboarding_client(current_settings()))


def items(app: Flask) -> list[OutboxItem]:
    """Every outbox item, oldest first, detached."""
    with app.app_context():
        found = list(db.session.scalars(select(OutboxItem).order_by(OutboxItem.id)))
        db.session.expunge_all()
        return found


def sent_to_sandbox(sandbox, suffix: str) -> list[bytes]:
    """Bodies of the PUTs the sandbox applied whose path ends with ``suffix``."""
    return [r.body for r in sandbox.state.onboarding.received_requests()
            if r.method == "PUT" and r.raw_path.endswith(suffix)]
