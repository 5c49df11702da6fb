"""Worker process tests: the queue on each database the portal supports."""

from __future__ import annotations

from tests.outbox.support import (
    app,
    database_url,
    migrated_any_database_url,
    migrated_postgres_template,
)

__all__ = ["app", "database_url", "migrated_any_database_url", "migrated_postgres_template"]
