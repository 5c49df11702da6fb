"""The server's record of each sign-in session: opened at sign-in, deleted to end it.

The session cookie carries a random token; the database keeps only its SHA-256. A session is
live while its row exists and it is younger than the absolute lifetime, so signing out, a
password change or a deactivation ends it however many copies of the cookie exist. An
authenticator being set up belongs to one session (``PendingEnrolment``) and goes with it.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import delete, select

from portal.core.db import db
from portal.core.models import PendingEnrolment, User, UserSession


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


def close_other_sessions(user_id: int, token: str) -> None:
    """End every session of ``user_id`` but the one ``token`` names (a second factor set up)."""
    db.session.execute(delete(UserSession).where(UserSession.user_id == user_id,
                                                 UserSession.id != _digest(token)))


def owner_of(token: str) -> int | None:
    """The user whose recorded session ``token`` names, live or past its time; None when the
    server has no such session (never had, or ended it)."""
    return db.session.scalar(select(UserSession.user_id).where(UserSession.id == _digest(token)))


def keep_pending_secret(token: str, secret: str, now: datetime) -> None:
    """Make ``secret`` the authenticator secret the session ``token`` is setting up, in place of
    any it was shown before."""
    forget_pending_secret(token)
    db.session.add(PendingEnrolment(session_id=_digest(token), secret=secret, created_at=now))


def pending_secret(token: str) -> str | None:
    """The authenticator secret the session ``token`` was shown, if it is setting one up."""
    return db.session.scalar(select(PendingEnrolment.secret).where(
        PendingEnrolment.session_id == _digest(token)))


def forget_pending_secret(token: str) -> None:
    """Drop the session's pending authenticator secret (confirmed, or replaced)."""
    db.session.execute(delete(PendingEnrolment).where(
        PendingEnrolment.session_id == _digest(token)))
