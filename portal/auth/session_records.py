"""The server's record of each sign-in session: opened at sign-in, deleted to end it.

The session cookie carries a random token; the database keeps only its SHA-256. A session is
live while its row exists and it is younger than the absolute lifetime, so signing out, a
password change or a deactivation ends it however many copies of the cookie exist.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import delete, select

from portal.db import db
from portal.models import UserSession


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def open_session(user_id: int, now: datetime, max_age: timedelta) -> str:
    """Record a new session for ``user_id`` (dropping its expired ones); return its token."""
    db.session.execute(delete(UserSession).where(UserSession.user_id == user_id,
                                                 UserSession.created_at <= now - max_age))
    token = secrets.token_urlsafe(32)
    db.session.add(UserSession(id=_digest(token), user_id=user_id, created_at=now))
    return token


def is_live(token: str, user_id: int, now: datetime, max_age: timedelta) -> bool:
    """True when ``token`` names a recorded session of ``user_id`` younger than ``max_age``."""
    started = db.session.scalar(select(UserSession.created_at).where(
        UserSession.id == _digest(token), UserSession.user_id == user_id))
    return started is not None and now - started < max_age


def close_session(token: str) -> None:
    """End the session ``token`` names."""
    db.session.execute(delete(UserSession).where(UserSession.id == _digest(token)))


def close_all_sessions(user_id: int) -> None:
    """End every session of ``user_id`` (password change, deactivation)."""
    db.session.execute(delete(UserSession).where(UserSession.user_id == user_id))
