"""Managing the team: add members with a one-time password, (de)activate, change roles,
invite again, reset a lost two-step sign-in.

The rules that keep the portal administrable and its four eyes two people: nobody deactivates,
re-roles or resets themselves; the last active admin stays an active admin (checked by the
statement that makes the change, ``portal.domain.users.admins``); and giving someone the admin role
is never done at once but a request: another admin approves it, or, while the asker is the only
one, the link emailed to ADMIN_CONFIRMATION_EMAIL confirms it (``admin_confirmation``). Who
added, promoted or gave a one-time password to each account is recorded
(``portal.domain.users.vouching``). Every change is audited; the caller commits (a request for
approval commits itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models import ApprovalRequest, Role, User
from portal.domain.audit.service import Actor, record
from portal.domain.four_eyes import requests
from portal.domain.users import accounts, admins, mfa, passwords, session_records
from portal.features.team import admin_confirmation

ROLE_LABELS = {Role.OPS.value: "Operations", Role.ADMIN.value: "Administrator"}
#: A member's state, as the team page says it, and what it means.
ACTIVE, INVITED, DEACTIVATED = "Active", "Invited", "Deactivated"
STATE_HELP = {INVITED: "has not signed in yet"}


@dataclass(frozen=True)
class Confirmation:
    """A change the team page asks about first: the question, what follows, the button, and
    what is said once done ({email} is the member's)."""

    question: str
    consequence: str
    button: str
    done: str


DEACTIVATE = Confirmation(
    "Deactivate {email}?",
    "They are signed out at once and cannot sign in until an administrator reactivates them. "
    "Their merchants, payments and audit entries stay as they are.",
    "Deactivate", "{email} was deactivated.")
RESET_TWO_STEP = Confirmation(
    "Reset the two-step sign-in of {email}?",
    "Their authenticator app and recovery codes stop working and they are signed out. At their "
    "next sign-in, with their password, they set up an authenticator app again and get new "
    "recovery codes. Do this only when you know it is them who lost their phone.",
    "Reset two-step sign-in", "The two-step sign-in of {email} was reset: they set it up "
    "again at their next sign-in.")


class TeamError(ValueError):
    """A team change refused, in words for the admin."""


def members() -> list[User]:
    """Every user, by email."""
    return accounts.list_users()


def member(user_id: int) -> User | None:
    """The user with this id, or None."""
    return db.session.get(User, user_id)


#: Why a team change never makes an administrator at once.
BY_REQUEST = "An administrator is added or made only by a request, with its reason."


def state_of(user: User) -> str:
    """Deactivated; Invited (added, never signed in: their one-time password or invitation is
    still to be used); else Active."""
    if not user.active:
        return DEACTIVATED
    if user.must_change_password and user.last_login_at is None:
        return INVITED
    return ACTIVE


def add_member(email: str, role: Role, one_time_for: timedelta,
               actor: User) -> tuple[User, str]:
    """Create a user with a generated one-time password working for ``one_time_for``, noting
    ``actor`` as who added them; the user and the password to hand over. Not an
    administrator: that is asked for (:func:`ask_for_admin`)."""
    if role == Role.ADMIN:
        raise TeamError(BY_REQUEST)
    password = passwords.generate_password()
    try:
        user = accounts.create_user(email, password, role, one_time_for=one_time_for,
                                    created_by_id=actor.id)
    except accounts.AccountError as exc:
        raise TeamError(f"There is already a user {accounts.normalize_email(email)}.") from exc
    record("user.create", actor=Actor.of(actor), detail={"email": user.email, "role": user.role})
    return user, password


def ask_for_admin(settings: Settings, email: str, user: User | None, invite: bool,
                  reason: str | None, actor: User) -> ApprovalRequest:
    """Ask for adding ``email`` as an administrator (``user`` None) or making the operations
    user ``user`` one: another admin approves it, or, ``actor`` being the only admin, the
    emailed confirmation does (``requests.RequestRefused`` for the reason it cannot be)."""
    if user is None and accounts.find_user(email) is not None:
        raise TeamError(f"There is already a user {accounts.normalize_email(email)}.")
    address = accounts.normalize_email(email)
    user_id = user.id if user else None
    if admin_confirmation.alone(actor.id):
        return admin_confirmation.hold(settings, address, user_id, invite, reason, actor)
    return requests.request_admin_role(address, user_id, invite, reason, actor.id)


def _last_admin(user: User, doing: str) -> TeamError:
    return TeamError(f"{user.email} is the only active administrator; {doing} would leave "
                     "nobody to manage the team. Make someone else an administrator first.")


def set_active(user: User, active: bool, actor: User) -> None:
    """Deactivate (sign-ins stop, the session ends) or reactivate ``user``."""
    if user.id == actor.id:
        raise TeamError("You cannot deactivate your own account; ask another administrator.")
    if active:
        accounts.set_active(user.email, True)
    else:
        if not admins.deactivate(user.id):
            db.session.refresh(user)
            if user.active:
                raise _last_admin(user, "deactivating them")
        session_records.close_all_sessions(user.id)
        db.session.refresh(user)
    record("user.activate" if active else "user.deactivate", actor=Actor.of(actor),
           detail={"email": user.email})


def change_role(user: User, role: Role, actor: User) -> None:
    """Make ``user`` an operations user (an administrator is asked for: :func:`ask_for_admin`)."""
    if user.id == actor.id:
        raise TeamError("You cannot change your own role; ask another administrator.")
    if user.role == role.value:
        return
    if role == Role.ADMIN:
        raise TeamError(BY_REQUEST)
    before = user.role
    changed = admins.demote(user.id)
    db.session.refresh(user)
    if not changed and user.role != role.value:
        raise _last_admin(user, "changing their role")
    record("user.role_change", actor=Actor.of(actor),
           detail={"email": user.email, "from": before, "to": role.value})


def issue_one_time_password(user: User, one_time_for: timedelta, actor: User) -> str:
    """Replace ``user``'s password with a generated one working for ``one_time_for``, to be
    changed at the next sign-in; the user's sessions end, and ``actor`` is noted as who could
    have signed in with it."""
    password = passwords.generate_password()
    accounts.set_password(user, password, one_time_for=one_time_for)
    user.password_issued_by_id = actor.id
    record("user.one_time_password", actor=Actor.of(actor), detail={"email": user.email})
    return password


def reinvite(user: User, one_time_for: timedelta, actor: User) -> str:
    """A new invitation for a member who never signed in: a fresh one-time password (the old
    one and any emailed link stop working); the password, for when the email fails, so
    ``actor`` is noted as who could have signed in with it."""
    if state_of(user) != INVITED:
        raise TeamError(f"{user.email} has signed in already; issue a one-time password "
                        "instead if they are locked out.")
    password = passwords.generate_password()
    accounts.set_password(user, password, one_time_for=one_time_for)
    user.password_issued_by_id = actor.id
    record("user.reinvite", actor=Actor.of(actor), detail={"email": user.email})
    return password


def reset_two_step(user: User, actor: User) -> None:
    """Remove a member's lost authenticator and recovery codes and end their sessions; they
    set up two-step sign-in again at their next sign-in."""
    if user.id == actor.id:
        raise TeamError("You cannot reset your own two-step sign-in; ask another "
                        "administrator.")
    if not user.has_totp:
        raise TeamError(f"{user.email} has no two-step sign-in to reset.")
    mfa.remove_authenticator(user)
    record("user.mfa_reset", actor=Actor.of(actor), detail={"email": user.email})
