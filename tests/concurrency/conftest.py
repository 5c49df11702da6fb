"""Concurrency tests: several engines or processes on one database of each kind."""

from __future__ import annotations

from tests.outbox.support import (
    app,
    database_url,
    migrated_any_database_url,
    migrated_postgres_template,
)

__all__ = ["app", "database_url", "migrated_any_database_url", "migrated_postgres_template"]
