"""Sign-in throttling, counted in the database so every process sees the same numbers.

An account is locked for LOCK_DURATION after ACCOUNT_LIMIT consecutive failures; a client
address is refused for the rest of its window after ADDRESS_LIMIT failures within ADDRESS_WINDOW.

Every count is one atomic statement (``UPDATE ... SET n = n + 1 ... RETURNING`` or an upsert), so
guesses sent at once cannot overwrite each other's counts. An account's attempt is claimed
*before* its password is checked: the ACCOUNT_LIMIT + 1st guess in flight is refused unchecked.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import case, select, update
from sqlalchemy.dialects import postgresql, sqlite

from portal.auth.metrics import LOCKOUTS
from portal.db import db
from portal.models import LoginThrottle, User

ACCOUNT_LIMIT = 5
LOCK_DURATION = timedelta(minutes=15)
ADDRESS_LIMIT = 20
ADDRESS_WINDOW = timedelta(minutes=15)

_INSERTS = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}


def claim_attempt(user_id: int, now: datetime) -> int | None:
    """Count one attempt at the account's credentials before checking them.

    Returns the attempt's number since the last success, or None when the account is locked
    (or this attempt locks it). The claim is committed at once so concurrent requests see it.
    """
    unlocked = (User.locked_until.is_(None)) | (User.locked_until <= now)
    attempt = db.session.scalar(
        update(User).where(User.id == user_id, unlocked)
        .values(failed_logins=User.failed_logins + 1).returning(User.failed_logins)
        .execution_options(synchronize_session=False))
    if attempt is not None and attempt > ACCOUNT_LIMIT:
        lock_account(user_id, now)
        attempt = None
    db.session.commit()
    return attempt


def note_account_failure(user_id: int, attempt: int, now: datetime) -> bool:
    """A claimed attempt failed; the ACCOUNT_LIMIT-th locks the account. True when it did."""
    if attempt < ACCOUNT_LIMIT:
        return False
    lock_account(user_id, now)
    return True


def lock_account(user_id: int, now: datetime) -> None:
    """Refuse the account's sign-ins until LOCK_DURATION from ``now``; the count starts over."""
    db.session.execute(
        update(User).where(User.id == user_id)
        .values(locked_until=now + LOCK_DURATION, failed_logins=0)
        .execution_options(synchronize_session=False))
    LOCKOUTS.inc()


def account_locked(user_id: int, now: datetime) -> bool:
    """True while the account's lock has not expired."""
    until = db.session.scalar(select(User.locked_until).where(User.id == user_id))
    return until is not None and now < until


def clear_account_failures(user_id: int) -> None:
    """Forget attempts after a successful sign-in."""
    db.session.execute(
        update(User).where(User.id == user_id).values(failed_logins=0, locked_until=None)
        .execution_options(synchronize_session=False))


def address_blocked(address: str, now: datetime) -> bool:
    """True when ``address`` failed too often in its current window."""
    failures = db.session.scalar(select(LoginThrottle.failures).where(
        LoginThrottle.address == address, LoginThrottle.window_started_at > now - ADDRESS_WINDOW))
    return failures is not None and failures >= ADDRESS_LIMIT


def note_address_failure(address: str, now: datetime) -> int:
    """Count a failed sign-in from ``address`` in one upsert, opening a new window when the last
    one ended; returns the failures in the window."""
    insert = _INSERTS[db.session.get_bind().dialect.name]
    ended = LoginThrottle.window_started_at <= now - ADDRESS_WINDOW
    statement = insert(LoginThrottle).values(address=address, failures=1, window_started_at=now)
    statement = statement.on_conflict_do_update(
        index_elements=[LoginThrottle.address],
        set_={"failures": case((ended, 1), else_=LoginThrottle.failures + 1),
              "window_started_at": case((ended, statement.excluded.window_started_at),
                                        else_=LoginThrottle.window_started_at)},
    ).returning(LoginThrottle.failures)
    return db.session.scalar(statement.execution_options(synchronize_session=False))
