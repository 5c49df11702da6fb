"""Worker process tests: real ``flask worker`` processes sharing one PostgreSQL database."""

from __future__ import annotations

import pytest

from portal.core.migrate import upgrade
from tests.outbox.support import app, migrated_postgres_template

__all__ = ["app", "migrated_postgres_template"]


@pytest.fixture
def database_url(postgres_url: str) -> str:
    """PostgreSQL only here: several processes share the database."""
    upgrade(postgres_url)
    return postgres_url
