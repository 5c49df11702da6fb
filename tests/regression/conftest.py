"""Fixtures of the SQL-count guards: a statement counter around one request."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event

from portal.db import db


@contextmanager
def statements(app) -> Iterator[list[str]]:
    """Collect the SQL statements the app's engine runs inside the block."""
    seen: list[str] = []

    def count(_conn, _cursor, statement: str, *_args) -> None:
        seen.append(statement)

    engine = db.engine(app)
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


@pytest.fixture
def count_get(app, client) -> Callable[[str], int]:
    """``count_get(path)``: the statements one GET of ``path`` runs (it must answer 200)."""

    def run(path: str) -> int:
        with statements(app) as seen:
            response = client.get(path)
        assert response.status_code == 200, path
        return len(seen)

    return run
