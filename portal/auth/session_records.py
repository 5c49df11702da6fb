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
from portal.models import User, UserSession


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def open_session(user_id: int, now: datetime, max_age: timedelta) -> str:
    """Record a new session for ``user_id`` (dropping its expired ones); return its token."""
    db.session.execute(delete(UserSession).where(UserSession.user_id == user_id,
                                                 UserSession.created_at <= now - max_age))
    token = secrets.token_urlsafe(32)
    db.session.add(UserSession(id=_digest(token), user_id=user_id, created_at=now))
    return token


def live_user(token: str, user_id: int, now: datetime, max_age: timedelta) -> User | None:
    """The user ``user_id`` when ``token`` names a recorded session of theirs younger than
    ``max_age``; read with the session in one SELECT, since every request asks."""
    found = db.session.execute(
        select(User, UserSession.created_at)
        .join(UserSession, UserSession.user_id == User.id)
        .where(User.id == user_id, UserSession.id == _digest(token))).first()
    if found is None or now - found.created_at >= max_age:
        return None
    return found.User


def close_session(token: str) -> None:
    """End the session ``token`` names."""
    db.session.execute(delete(UserSession).where(UserSession.id == _digest(token)))


def close_all_sessions(user_id: int) -> None:
    """End every session of ``user_id`` (password change, deactivation)."""
    db.session.execute(delete(UserSession).where(UserSession.user_id == user_id))
