"""Outbox tests run on SQLite and on PostgreSQL: the app's database is one of each."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from portal.db import db
from tests.outbox.support import migrated_any_database_url, migrated_postgres_template
from tests.wizard.conftest import browser, new_merchant

__all__ = ["browser", "migrated_any_database_url", "migrated_postgres_template", "new_merchant"]


@pytest.fixture
def database_url(migrated_any_database_url: str) -> str:
    """The portal's database for these tests: migrated, SQLite or PostgreSQL."""
    return migrated_any_database_url


@pytest.fixture
def app(app: Flask) -> Iterator[Flask]:
    """The portal, its connection pool closed after the test (PostgreSQL counts them)."""
    yield app
    db.engine(app).dispose()
