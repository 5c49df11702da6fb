"""A user's notices in the portal: a page of them, newest first, how many are unread, marking
them read."""

from __future__ import annotations

from sqlalchemy import func, select, update

from portal.core import clock
from portal.core.db import db
from portal.core.models.notice import Notice
from portal.core.pagination import Page, clamped

#: Notices a page shows.
PER_PAGE = 50


def page_of(user_id: int, page: int = 1, per_page: int = PER_PAGE) -> Page[Notice]:
    """One page of the user's notices, newest first (a page past the last shows the last):
    two statements."""
    total = db.session.scalar(select(func.count(Notice.id)).where(Notice.user_id == user_id)) or 0
    page = clamped(page, total, per_page)
    return Page(list(db.session.scalars(
        select(Notice).where(Notice.user_id == user_id)
        .order_by(Notice.created_at.desc(), Notice.id.desc())
        .limit(per_page).offset((page - 1) * per_page))), total, page, per_page)


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
