"""Accounts: create, find, (de)activate users and check their credentials."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from portal import clock
from portal.auth import passwords, throttle
from portal.db import db
from portal.models import Role, User

DEFAULT_ADMIN_EMAIL = "admin@localhost"


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


def create_user(email: str, password: str, role: Role, *, one_time: bool = False) -> User:
    """Add a user with a hashed password (the caller checks the email's syntax and commits).

    A ``one_time`` password must be replaced by the user at their first sign-in.
    """
    address = normalize_email(email)
    if find_user(address) is not None:
        raise AccountError(f"A user {address} already exists.")
    try:
        passwords.check_strength(password)
    except ValueError as exc:
        raise AccountError(str(exc)) from exc
    user = User(email=address, password_hash=passwords.hash_password(password), role=role.value,
                active=True, created_at=clock.utcnow(), failed_logins=0,
                must_change_password=one_time)
    db.session.add(user)
    db.session.flush()
    return user


def set_active(email: str, active: bool) -> User:
    """Allow or stop a user's sign-ins; a deactivated user is signed out on the next request."""
    user = get_user(email)
    user.active = active
    return user


def list_users() -> list[User]:
    """Every user, by email."""
    return list(db.session.scalars(select(User).order_by(User.email)))


def admin_exists() -> bool:
    """True when at least one admin account exists (active or not)."""
    query = select(User.id).where(User.role == Role.ADMIN.value).limit(1)
    return db.session.scalar(query) is not None


def authenticate(email: str, password: str, address: str) -> User | None:
    """The user if the credentials are right and no throttle applies; counts failures otherwise.

    Every refusal looks the same to the caller, so it cannot tell unknown emails, wrong
    passwords, locked accounts, inactive users and blocked addresses apart.
    """
    now = clock.utcnow()
    if throttle.address_blocked(address, now):
        passwords.spend_verification_time(password)
        return None
    user = find_user(email)
    if user is None or throttle.account_locked(user, now):
        passwords.spend_verification_time(password)
    elif passwords.verify_password(user.password_hash, password):
        if user.active:
            _signed_in(user, password, now)
            return user
    else:
        throttle.note_account_failure(user, now)
    throttle.note_address_failure(address, now)
    return None


def _signed_in(user: User, password: str, now: datetime) -> None:
    throttle.clear_account_failures(user)
    user.last_login_at = now
    if passwords.needs_rehash(user.password_hash):
        user.password_hash = passwords.hash_password(password)


def ensure_admin() -> str | None:
    """Create DEFAULT_ADMIN_EMAIL when no admin exists; return its one-time password, else None."""
    if admin_exists():
        return None
    password = passwords.generate_password()
    create_user(DEFAULT_ADMIN_EMAIL, password, Role.ADMIN, one_time=True)
    return password


class PasswordRefused(AccountError):
    """A password change refused, naming the form field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def change_password(user: User, current: str, new: str) -> None:
    """Replace ``user``'s password after checking the current one (the caller commits)."""
    if not passwords.verify_password(user.password_hash, current):
        raise PasswordRefused("current_password", "The current password is not right.")
    if new == current:
        raise PasswordRefused("new_password", "Choose a password different from the current one.")
    try:
        passwords.check_strength(new)
    except ValueError as exc:
        raise PasswordRefused("new_password", str(exc)) from exc
    user.password_hash = passwords.hash_password(new)
    user.must_change_password = False


def set_password(user: User, password: str, *, one_time: bool = False) -> None:
    """Give ``user`` a new password without the current one (reset link, admin); caller commits.

    A ``one_time`` password must be replaced at the next sign-in. Clears a sign-in lock.
    """
    try:
        passwords.check_strength(password)
    except ValueError as exc:
        raise PasswordRefused("password", str(exc)) from exc
    user.password_hash = passwords.hash_password(password)
    user.must_change_password = one_time
    throttle.clear_account_failures(user)
