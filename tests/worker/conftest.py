"""Worker process tests: real ``flask worker`` processes sharing one PostgreSQL database."""

from __future__ import annotations

from tests.outbox.support import app, migrated_postgres_template
from tests.support.postgres import shared_postgres

__all__ = ["app", "migrated_postgres_template"]


database_url = shared_postgres()
