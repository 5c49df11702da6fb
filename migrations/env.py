"""Alembic environment: the models' metadata, batch mode for SQLite, URL from the config."""

from __future__ import annotations

from alembic import context
from sqlalchemy.types import TypeDecorator

import portal.core.models  # noqa: F401  (registers every table)
from portal.core.config import settings_from_env
from portal.core.db import Base, make_engine
from portal.core.migrate import include_object

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    url = config.attributes.get("url") or config.get_main_option("sqlalchemy.url")
    if url:
        return url
    return settings_from_env().database_url


def render_item(type_: str, obj, _autogen_context) -> str | bool:
    """Write the portal's column types (e.g. UTCDateTime) as plain SQLAlchemy types, so a
    migration never imports application code."""
    if type_ == "type" and isinstance(obj, TypeDecorator):
        return f"sa.{obj.impl!r}"
    return False


def run_offline() -> None:
    """Emit SQL to stdout."""
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True, render_item=render_item)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Run migrations on a live connection."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(_url())
    try:
        with engine.connect() as conn:
            _run(conn)
    finally:
        engine.dispose()


def _run(connection) -> None:
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        _sqlite_foreign_keys(connection, "OFF")
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=sqlite, compare_type=True, render_item=render_item,
                      include_object=include_object)
    try:
        with context.begin_transaction():
            context.run_migrations()
    finally:
        if sqlite:
            _sqlite_foreign_keys(connection, "ON")


def _sqlite_foreign_keys(connection, state: str) -> None:
    """Switch SQLite's foreign keys (outside a transaction, or SQLite ignores it): a batch
    migration copies a table and drops the old one, and with foreign keys on that drop
    deletes (ON DELETE CASCADE) or nulls (SET NULL) every referencing row."""
    connection.exec_driver_sql(f"PRAGMA foreign_keys={state}")
    connection.commit()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
