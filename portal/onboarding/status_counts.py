"""The number of merchants per status, moved in the same transaction as every change of it (a
merchant started, its status changed, a merchant deleted), so the dashboard reads a few rows
instead of counting every merchant."""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import Insert, select
from sqlalchemy.dialects import postgresql, sqlite

from portal.db import db
from portal.models.status_count import NO_STATUS, MerchantStatusCount


def adjust_status_counts(deltas: Mapping[str | None, int]) -> None:
    """Add each delta to its status's count (``None``: merchants without a status yet), in one
    statement of the current transaction; no commit."""
    statement = status_counts_upsert(db.session.get_bind().dialect.name, deltas)
    if statement is not None:
        db.session.execute(statement)


def status_counts_upsert(dialect: str, deltas: Mapping[str | None, int]) -> Insert | None:
    """The statement adding ``deltas`` to the counts on ``dialect`` (None if nothing moves).
    Each count changes atomically in SQL, rows in a fixed order, so concurrent changes neither
    lose an update nor deadlock each other."""
    rows = sorted((status or NO_STATUS, delta) for status, delta in deltas.items() if delta)
    if not rows:
        return None
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = insert(MerchantStatusCount).values(
        [{"status": status, "merchants": delta} for status, delta in rows])
    return statement.on_conflict_do_update(
        index_elements=[MerchantStatusCount.status],
        set_={"merchants": MerchantStatusCount.merchants + statement.excluded.merchants})


def status_counts() -> dict[str | None, int]:
    """How many merchants hold each status (``None``: no status yet), statuses held by none
    left out: one statement reading a row per status."""
    rows = db.session.execute(select(MerchantStatusCount.status, MerchantStatusCount.merchants)
                              .where(MerchantStatusCount.merchants != 0))
    return {(status or None): count for status, count in rows}
