"""Managing the team: add members with a one-time password, (de)activate, change roles.

The rules that keep the portal administrable: nobody deactivates or re-roles themselves, and
the last active admin stays an active admin. Every change is audited; the caller commits.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from portal.audit import record
from portal.auth import accounts, passwords
from portal.db import db
from portal.models import Role, User

ROLE_LABELS = {Role.OPS.value: "Operations", Role.ADMIN.value: "Administrator"}


class TeamError(ValueError):
    """A team change refused, in words for the admin."""


def members() -> list[User]:
    """Every user, by email."""
    return accounts.list_users()


def member(user_id: int) -> User | None:
    """The user with this id, or None."""
    return db.session.get(User, user_id)


def add_member(email: str, role: Role, one_time_for: timedelta) -> tuple[User, str]:
    """Create a user with a generated one-time password working for ``one_time_for``; the user
    and the password to hand over."""
    password = passwords.generate_password()
    try:
        user = accounts.create_user(email, password, role, one_time_for=one_time_for)
    except accounts.AccountError as exc:
        raise TeamError(f"There is already a user {accounts.normalize_email(email)}.") from exc
    record("user.create", detail={"email": user.email, "role": user.role})
    return user, password


def _active_admins() -> int:
    return db.session.scalar(select(func.count(User.id)).where(
        User.role == Role.ADMIN.value, User.active.is_(True))) or 0


def _refuse_if_last_admin(user: User, doing: str) -> None:
    if user.role == Role.ADMIN.value and user.active and _active_admins() <= 1:
        raise TeamError(f"{user.email} is the only active administrator; {doing} would leave "
                        "nobody to manage the team. Make someone else an administrator first.")


def set_active(user: User, active: bool, actor: User) -> None:
    """Deactivate (sign-ins stop, the session ends) or reactivate ``user``."""
    if user.id == actor.id:
        raise TeamError("You cannot deactivate your own account; ask another administrator.")
    if not active:
        _refuse_if_last_admin(user, "deactivating them")
    accounts.set_active(user.email, active)
    record("user.activate" if active else "user.deactivate", detail={"email": user.email})


def change_role(user: User, role: Role, actor: User) -> None:
    """Make ``user`` an operations user or an administrator."""
    if user.id == actor.id:
        raise TeamError("You cannot change your own role; ask another administrator.")
    if user.role == role.value:
        return
    if role != Role.ADMIN:
        _refuse_if_last_admin(user, "changing their role")
    record("user.role_change", detail={"email": user.email, "from": user.role, "to": role.value})
    user.role = role.value


def issue_one_time_password(user: User, one_time_for: timedelta) -> str:
    """Replace ``user``'s password with a generated one working for ``one_time_for``, to be
    changed at the next sign-in; the user's sessions end."""
    password = passwords.generate_password()
    accounts.set_password(user, password, one_time_for=one_time_for)
    record("user.one_time_password", detail={"email": user.email})
    return password
