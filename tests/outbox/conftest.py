"""Outbox tests run on SQLite and on PostgreSQL: the app's database is one of each."""

from __future__ import annotations

from tests.outbox.support import (
    app,
    database_url,
    migrated_any_database_url,
    migrated_postgres_template,
)
from tests.wizard.support import browser, new_merchant

__all__ = ["app", "browser", "database_url", "migrated_any_database_url",
           "migrated_postgres_template", "new_merchant"]
