"""A user's notices in the portal: the newest, how many are unread, marking them read."""

from __future__ import annotations

from sqlalchemy import func, select, update

from portal.core import clock
from portal.core.db import db
from portal.core.models.notice import Notice

#: The most notices the page shows (the newest).
SHOWN = 50


def newest(user_id: int, limit: int = SHOWN) -> list[Notice]:
    """The user's newest notices, newest first."""
    return list(db.session.scalars(select(Notice).where(Notice.user_id == user_id)
                                   .order_by(Notice.created_at.desc(), Notice.id.desc())
                                   .limit(limit)))


def unread_count(user_id: int) -> int:
    """How many of the user's notices are unread."""
    return db.session.scalar(select(func.count(Notice.id)).where(
        Notice.user_id == user_id, Notice.read_at.is_(None))) or 0


def mark_read(user_id: int) -> int:
    """Mark every unread notice of the user read; how many; no commit."""
    return db.session.execute(
        update(Notice).where(Notice.user_id == user_id, Notice.read_at.is_(None))
        .values(read_at=clock.utcnow()), execution_options={"synchronize_session": False}
    ).rowcount
