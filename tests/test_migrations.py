"""The Alembic migrations build exactly the schema the models describe, on SQLite and PostgreSQL."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from portal.db import Base, make_engine
from portal.migrate import include_object, upgrade


def test_migrated_schema_matches_the_models(any_database_url):
    upgrade(any_database_url)
    engine = make_engine(any_database_url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={
                "compare_type": True, "include_object": include_object})
            differences = compare_metadata(context, Base.metadata)
            tables = set(inspect(conn).get_table_names())
    finally:
        engine.dispose()
    assert differences == []
    assert set(Base.metadata.tables) <= tables


def test_migrations_run_twice_without_change(any_database_url):
    upgrade(any_database_url)
    upgrade(any_database_url)
    engine = make_engine(any_database_url)
    try:
        with engine.connect() as conn:
            assert MigrationContext.configure(conn).get_current_revision() is not None or \
                not Base.metadata.tables
    finally:
        engine.dispose()
