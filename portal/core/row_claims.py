"""Claiming queued rows so that one worker alone takes each, across processes.

On PostgreSQL ``SELECT ... FOR UPDATE SKIP LOCKED``: concurrent claimers skip each other's rows.
Elsewhere (SQLite) a conditional ``UPDATE`` per candidate that only one claimer can win. The
outbox's step sends and the worker's jobs are both claimed this way, under one lease.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any, Protocol

from sqlalchemy import ColumnElement, and_, select, update
from sqlalchemy.orm import InstrumentedAttribute

from portal.core.db import db

#: How long a claim protects a row unless renewed: far beyond one step send's or one bulk
#: row's timeouts and retries. A claim older than this is a dead worker's, and is taken again.
LEASE = timedelta(minutes=10)


class Claimable(Protocol):
    """A model with an integer ``id`` primary key."""

    id: InstrumentedAttribute[int]


def claim_rows(model: type[Claimable], claimable: ColumnElement[bool],
               order_by: Sequence[Any], limit: int, values: Mapping[str, Any]) -> list[int]:
    """Set ``values`` on up to ``limit`` rows matching ``claimable``, for this caller alone;
    returns their ids, oldest in ``order_by`` first; commits."""
    due = select(model.id).where(claimable).order_by(*order_by).limit(limit)
    if db.session.connection().dialect.name == "postgresql":
        ids = list(db.session.scalars(due.with_for_update(skip_locked=True)))
        if ids:
            _mark(model, model.id.in_(ids), values)
        db.session.commit()
        return ids
    candidates = list(db.session.scalars(due))
    db.session.commit()  # end the read: each claim below is a write transaction of its own
    claimed = []
    for row_id in candidates:
        if _mark(model, and_(model.id == row_id, claimable), values) == 1:
            claimed.append(row_id)
        db.session.commit()
    return claimed


def _mark(model: type[Claimable], where: ColumnElement[bool], values: Mapping[str, Any]) -> int:
    result = db.session.execute(update(model).where(where).values(**values),
                                execution_options={"synchronize_session": False})
    return result.rowcount
