"""Sign-in throttling, counted in the database so every process sees the same numbers.

An account is locked for LOCK_DURATION after ACCOUNT_LIMIT consecutive failures; a client
address is refused for the rest of its window after ADDRESS_LIMIT failures within ADDRESS_WINDOW.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from portal.db import db
from portal.models import LoginThrottle, User

ACCOUNT_LIMIT = 5
LOCK_DURATION = timedelta(minutes=15)
ADDRESS_LIMIT = 20
ADDRESS_WINDOW = timedelta(minutes=15)


def account_locked(user: User, now: datetime) -> bool:
    """True while the account's lock has not expired."""
    return user.locked_until is not None and now < user.locked_until


def note_account_failure(user: User, now: datetime) -> None:
    """Count a wrong password; the ACCOUNT_LIMIT-th locks the account."""
    user.failed_logins += 1
    if user.failed_logins >= ACCOUNT_LIMIT:
        user.locked_until = now + LOCK_DURATION
        user.failed_logins = 0


def clear_account_failures(user: User) -> None:
    """Forget failures after a successful sign-in."""
    user.failed_logins = 0
    user.locked_until = None


def _current_window(address: str, now: datetime) -> LoginThrottle | None:
    throttle = db.session.get(LoginThrottle, address)
    if throttle is None or now - throttle.window_started_at >= ADDRESS_WINDOW:
        return None
    return throttle


def address_blocked(address: str, now: datetime) -> bool:
    """True when ``address`` failed too often in its current window."""
    throttle = _current_window(address, now)
    return throttle is not None and throttle.failures >= ADDRESS_LIMIT


def note_address_failure(address: str, now: datetime) -> None:
    """Count a failed sign-in from ``address``, opening a new window when the last one ended."""
    throttle = _current_window(address, now)
    if throttle is None:
        throttle = db.session.merge(LoginThrottle(address=address, failures=0,
                                                  window_started_at=now))
    throttle.failures += 1
