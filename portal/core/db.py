"""The database: a declarative base with a naming convention, and a session per app context."""

from __future__ import annotations

import weakref
from pathlib import Path
from typing import Any

from flask import Flask, current_app, g
from sqlalchemy import MetaData, create_engine, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from portal.core.private_files import make_private

#: The largest id a row can have (PostgreSQL's INTEGER); a larger number names no row.
MAX_ROW_ID = 2**31 - 1
#: Constraint names Alembic batch migrations on SQLite can rely on.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Base of every model."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets foreign keys, WAL, a busy timeout and an owner-only
    database file."""
    options: dict[str, Any] = {"pool_pre_ping": True}
    if url.startswith("sqlite"):
        _private_sqlite_files(url)
        options["connect_args"] = {"check_same_thread": False, "timeout": 30}
    engine = create_engine(url, **options)
    if url.startswith("sqlite"):
        event.listen(engine, "connect", _sqlite_pragmas)
    # an engine dropped without dispose() (an app built and thrown away, as tests do) closes
    # its pooled connections rather than leaving them to the garbage collector, which warns
    # about each SQLite connection since Python 3.13
    weakref.finalize(engine, engine.pool.dispose)
    return engine


def _private_sqlite_files(url: str) -> None:
    """Create the SQLite file owner-only before SQLite does (it would use 0644 less the umask);
    its -wal, -shm and -journal files take the database file's permissions."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    if not path.parent.is_dir():
        return  # SQLite reports the missing folder itself
    make_private(path)
    for suffix in ("-wal", "-shm", "-journal"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            make_private(companion)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


class Database:
    """Binds an engine to an app and hands out one session per app context."""

    EXTENSION = "portal_db"

    def init_app(self, app: Flask, url: str) -> None:
        """Create the engine for ``app`` and close sessions when a context ends."""
        engine = make_engine(url)
        app.extensions[self.EXTENSION] = sessionmaker(engine, expire_on_commit=False)
        app.teardown_appcontext(self._close)

    def engine(self, app: Flask | None = None) -> Engine:
        """The engine of ``app`` (default: the current app)."""
        factory = (app or current_app).extensions[self.EXTENSION]
        return factory.kw["bind"]

    @property
    def session(self) -> Session:
        """The current app context's session, opened on first use."""
        if "db_session" not in g:
            g.db_session = current_app.extensions[self.EXTENSION]()
        return g.db_session

    @staticmethod
    def _close(exc: BaseException | None) -> None:
        session: Session | None = g.pop("db_session", None)
        if session is not None:
            if exc is not None:
                session.rollback()
            session.close()


db = Database()


_INSERTS = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}


def upsert_insert() -> Any:
    """The current session's dialect's INSERT construct, which has ``on_conflict_do_update``
    (an atomic count: ``... SET n = n + 1 RETURNING n``)."""
    return _INSERTS[db.session.get_bind().dialect.name]
