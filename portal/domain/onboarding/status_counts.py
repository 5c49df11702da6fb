"""The number of merchants per status, as the dashboard reads it: a row per status in
``merchant_status_counts``, which triggers on ``merchants`` move in the same transaction as
every insert, delete and change of status (migration 0020), so the dashboard reads a few rows
instead of counting every merchant."""

from __future__ import annotations

from sqlalchemy import select

from portal.core.db import db
from portal.core.models.status_count import MerchantStatusCount


def status_counts() -> dict[str | None, int]:
    """How many merchants hold each status (``None``: no status yet), statuses held by none
    left out: one statement reading a row per status."""
    rows = db.session.execute(select(MerchantStatusCount.status, MerchantStatusCount.merchants)
                              .where(MerchantStatusCount.merchants != 0))
    return {(status or None): count for status, count in rows}
