"""Accounts: create, find, (de)activate users and check their credentials."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TypeVar

from sqlalchemy import select

from portal.core import clock
from portal.core.db import db
from portal.core.models import Role, User
from portal.domain.users import passwords, session_records, throttle

DEFAULT_ADMIN_EMAIL = "admin@localhost"
#: The longest client address the throttles store (an IPv6 address has at most 45 characters).
ADDRESS_MAX = 64


class AccountError(ValueError):
    """An account operation cannot be done (duplicate email, unknown user, weak password)."""


def normalize_email(email: str) -> str:
    """The form emails are stored and looked up in: trimmed and lower-case."""
    return email.strip().lower()


def find_user(email: str) -> User | None:
    """The user with ``email`` (any case), if there is one."""
    return db.session.scalar(select(User).where(User.email == normalize_email(email)))


def get_user(email: str) -> User:
    """The user with ``email``, or AccountError."""
    user = find_user(email)
    if user is None:
        raise AccountError(f"No user {normalize_email(email)}.")
    return user


def create_user(email: str, password: str, role: Role, *,
                one_time_for: timedelta | None = None, created_by_id: int | None = None) -> User:
    """Add a user with a hashed password (the caller checks the email's syntax and commits).

    A one-time password (``one_time_for`` given) works for that long, and must be replaced by
    the user at their first sign-in. ``created_by_id``: the admin who added them (none from
    the command line).
    """
    address = normalize_email(email)
    if find_user(address) is not None:
        raise AccountError(f"A user {address} already exists.")
    try:
        passwords.check_strength(password)
    except ValueError as exc:
        raise AccountError(str(exc)) from exc
    now = clock.utcnow()
    user = User(email=address, password_hash=passwords.hash_password(password), role=role.value,
                active=True, created_at=now, created_by_id=created_by_id,
                must_change_password=one_time_for is not None,
                one_time_password_expires_at=None if one_time_for is None else now + one_time_for)
    db.session.add(user)
    db.session.flush()
    return user


def set_active(email: str, active: bool) -> User:
    """Allow or stop a user's sign-ins; deactivation ends every session of the user."""
    user = get_user(email)
    user.active = active
    if not active:
        session_records.close_all_sessions(user.id)
    return user


def list_users() -> list[User]:
    """Every user, by email."""
    return list(db.session.scalars(select(User).order_by(User.email)))


def admin_exists() -> bool:
    """True when at least one admin account exists (active or not)."""
    query = select(User.id).where(User.role == Role.ADMIN.value).limit(1)
    return db.session.scalar(query) is not None


Checked = TypeVar("Checked")


def throttled(user: User | None, address: str, check: Callable[[User], Checked | None],
              decoy: Callable[[], object] = lambda: None) -> Checked | None:
    """Run ``check`` on ``user`` unless a throttle applies, counting the attempt; None if refused.

    The attempt is claimed on the account (from ``address``) before ``check`` runs, so guesses
    sent at once are counted too; when no check runs, ``decoy`` spends the time one would have
    taken.
    """
    now = clock.utcnow()
    address = address[:ADDRESS_MAX]
    attempt = None
    if user is not None and not throttle.address_blocked(address, now):
        attempt = throttle.claim_attempt(user.id, address, now)
    if user is None or attempt is None:
        decoy()
        outcome = None
    else:
        outcome = check(user)
        if outcome is None:
            throttle.note_failure(user.id, address, attempt, now)
    if outcome is None:
        throttle.note_address_failure(address, now)
    return outcome


def one_time_password_expired(user: User, now: datetime) -> bool:
    """True when the user still has a one-time password and it is past its time."""
    expires = user.one_time_password_expires_at
    return user.must_change_password and expires is not None and now >= expires


def authenticate(email: str, password: str, address: str) -> User | None:
    """The user if the credentials are right and no throttle applies; counts failures otherwise.

    Every refusal looks the same to the caller, so it cannot tell unknown emails, wrong
    passwords, locked accounts, inactive users, expired one-time passwords and blocked
    addresses apart. The address's failures are cleared by ``note_sign_in``, once every factor
    passed.
    """

    def check(user: User) -> User | None:
        if not passwords.verify_password(user.password_hash, password):
            return None
        if not user.active or one_time_password_expired(user, clock.utcnow()):
            return None
        if passwords.needs_rehash(user.password_hash):
            user.password_hash = passwords.hash_password(password)
        return user

    return throttled(find_user(email), address, check,
                     decoy=lambda: passwords.spend_verification_time(password))


def note_sign_in(user: User, address: str) -> None:
    """Every factor passed: forget the address's failures and note the time (the caller
    commits)."""
    throttle.clear_failures(user.id, address[:ADDRESS_MAX])
    user.last_login_at = clock.utcnow()


def ensure_admin(one_time_for: timedelta) -> str | None:
    """Create DEFAULT_ADMIN_EMAIL when no admin exists; return its one-time password, else None."""
    if admin_exists():
        return None
    password = passwords.generate_password()
    create_user(DEFAULT_ADMIN_EMAIL, password, Role.ADMIN, one_time_for=one_time_for)
    return password


class PasswordRefused(AccountError):
    """A password change refused, naming the form field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def change_password(user: User, current: str, new: str, address: str) -> None:
    """Replace ``user``'s password after checking the current one, throttled like sign-in;
    every session of the user ends (the caller starts a new one and commits)."""
    if new == current:
        raise PasswordRefused("new_password", "Choose a password different from the current one.")
    try:
        passwords.check_strength(new)
    except ValueError as exc:
        raise PasswordRefused("new_password", str(exc)) from exc
    if throttled(user, address, lambda u: u if passwords.verify_password(
            u.password_hash, current) else None) is None:
        raise PasswordRefused("current_password", "The current password is not right.")
    throttle.clear_failures(user.id, address[:ADDRESS_MAX])
    user.password_hash = passwords.hash_password(new)
    user.must_change_password = False
    user.one_time_password_expires_at = None
    session_records.close_all_sessions(user.id)


def is_locked(user: User, address: str) -> bool:
    """True while repeated failures keep ``address`` (or everyone) out of the account."""
    return throttle.locked_out(user.id, address[:ADDRESS_MAX], clock.utcnow())


def set_password(user: User, password: str, *, one_time_for: timedelta | None = None) -> None:
    """Give ``user`` a new password without the current one (reset link, admin); every session
    of the user ends and a sign-in lock is lifted (the caller commits).

    A one-time password (``one_time_for`` given) works for that long and must be replaced at
    the next sign-in.
    """
    try:
        passwords.check_strength(password)
    except ValueError as exc:
        raise PasswordRefused("password", str(exc)) from exc
    throttle.lift_locks(user.id)
    user.password_hash = passwords.hash_password(password)
    user.must_change_password = one_time_for is not None
    user.one_time_password_expires_at = (None if one_time_for is None
                                         else clock.utcnow() + one_time_for)
    session_records.close_all_sessions(user.id)
