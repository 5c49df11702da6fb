"""Sign-in throttling, counted in the database so every process sees the same numbers.

Failures are counted per account *and* client address: ACCOUNT_LIMIT consecutive failures from
one address lock that address out of that account for LOCK_DURATION, so whoever types wrong
passwords for someone's email locks only their own address out, never the owner. When
LOCKED_ADDRESSES different addresses are locked out of one account at the same time (guessing
spread over many addresses), the whole account is locked for LOCK_DURATION. Apart from that, an
address is refused for the rest of its window after ADDRESS_LIMIT failures within ADDRESS_WINDOW,
whatever the accounts.

Every count is one atomic statement (an upsert ``... SET failures = failures + 1 ...
RETURNING``), so guesses sent at once cannot overwrite each other's counts. An attempt is claimed
*before* its password is checked: the ACCOUNT_LIMIT + 1st guess in flight is refused unchecked.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import case, delete, func, select, update

from portal.core.db import db, upsert_insert
from portal.core.models import LoginFailure, LoginThrottle, User
from portal.domain.users.metrics import LOCKOUTS

ACCOUNT_LIMIT = 5
LOCK_DURATION = timedelta(minutes=15)
#: Addresses locked out of one account at once that lock the account for everyone.
LOCKED_ADDRESSES = 10
ADDRESS_LIMIT = 20
ADDRESS_WINDOW = timedelta(minutes=15)

def claim_attempt(user_id: int, address: str, now: datetime) -> int | None:
    """Count one attempt at the account's credentials from ``address`` before checking them.

    Returns the attempt's number since the last success from there, or None when the account
    or this address's access to it is locked (or this attempt locks it). Committed at once so
    concurrent requests see it.
    """
    if account_locked(user_id, now):
        db.session.commit()
        return None
    statement = upsert_insert()(LoginFailure).values(user_id=user_id, address=address, failures=1)
    lapsed = LoginFailure.locked_until.is_not(None)  # a lock that ran out: count from one
    attempt = db.session.scalar(statement.on_conflict_do_update(
        index_elements=[LoginFailure.user_id, LoginFailure.address],
        set_={"failures": case((lapsed, 1), else_=LoginFailure.failures + 1),
              "locked_until": None},
        where=LoginFailure.locked_until.is_(None) | (LoginFailure.locked_until <= now),
    ).returning(LoginFailure.failures).execution_options(synchronize_session=False))
    if attempt is not None and attempt > ACCOUNT_LIMIT:
        lock(user_id, address, now)
        attempt = None
    db.session.commit()
    return attempt


def note_failure(user_id: int, address: str, attempt: int, now: datetime) -> bool:
    """A claimed attempt failed; the ACCOUNT_LIMIT-th locks the address out. True when it did."""
    if attempt < ACCOUNT_LIMIT:
        return False
    lock(user_id, address, now)
    return True


def lock(user_id: int, address: str, now: datetime) -> None:
    """Refuse ``address`` the account until LOCK_DURATION from ``now`` (its count starts over);
    the LOCKED_ADDRESSES-th address locked out at once locks the account for everyone."""
    until = now + LOCK_DURATION
    db.session.execute(
        update(LoginFailure)
        .where(LoginFailure.user_id == user_id, LoginFailure.address == address)
        .values(locked_until=until, failures=0).execution_options(synchronize_session=False))
    LOCKOUTS.inc()
    locked = db.session.scalar(select(func.count()).select_from(LoginFailure).where(
        LoginFailure.user_id == user_id, LoginFailure.locked_until > now)) or 0
    if locked >= LOCKED_ADDRESSES:
        db.session.execute(update(User).where(User.id == user_id).values(locked_until=until)
                           .execution_options(synchronize_session=False))
        LOCKOUTS.inc()


def account_locked(user_id: int, now: datetime) -> bool:
    """True while the whole account is locked (many addresses failed)."""
    until = db.session.scalar(select(User.locked_until).where(User.id == user_id))
    return until is not None and now < until


def locked_out(user_id: int, address: str, now: datetime) -> bool:
    """True while ``address`` may not try the account (its own lock, or the account's)."""
    until = db.session.scalar(select(LoginFailure.locked_until).where(
        LoginFailure.user_id == user_id, LoginFailure.address == address))
    return (until is not None and now < until) or account_locked(user_id, now)


def clear_failures(user_id: int, address: str) -> None:
    """Forget the failures from ``address`` after it signed in (or proved the password)."""
    db.session.execute(
        delete(LoginFailure).where(LoginFailure.user_id == user_id,
                                   LoginFailure.address == address)
        .execution_options(synchronize_session=False))


def lift_locks(user_id: int) -> None:
    """Forget every failure and lock of the account (its password was set anew)."""
    db.session.execute(delete(LoginFailure).where(LoginFailure.user_id == user_id)
                       .execution_options(synchronize_session=False))
    db.session.execute(update(User).where(User.id == user_id).values(locked_until=None)
                       .execution_options(synchronize_session=False))


def address_blocked(address: str, now: datetime) -> bool:
    """True when ``address`` failed too often in its current window."""
    failures = db.session.scalar(select(LoginThrottle.failures).where(
        LoginThrottle.address == address, LoginThrottle.window_started_at > now - ADDRESS_WINDOW))
    return failures is not None and failures >= ADDRESS_LIMIT


def note_address_failure(address: str, now: datetime) -> int:
    """Count a failed sign-in from ``address`` in one upsert, opening a new window when the last
    one ended; returns the failures in the window."""
    ended = LoginThrottle.window_started_at <= now - ADDRESS_WINDOW
    statement = upsert_insert()(LoginThrottle).values(address=address, failures=1,
                                                window_started_at=now)
    statement = statement.on_conflict_do_update(
        index_elements=[LoginThrottle.address],
        set_={"failures": case((ended, 1), else_=LoginThrottle.failures + 1),
              "window_started_at": case((ended, statement.excluded.window_started_at),
                                        else_=LoginThrottle.window_started_at)},
    ).returning(LoginThrottle.failures)
    return db.session.scalar(statement.execution_options(synchronize_session=False))
