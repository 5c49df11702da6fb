"""Multi-factor sign-in: who must use it, enrolment, and checking a second factor."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import update

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models import Role, User
from portal.domain.users import recovery_codes, session_records, totp


class SecondFactor(StrEnum):
    """What proved the sign-in besides the password."""

    AUTHENTICATOR = "authenticator"
    RECOVERY_CODE = "recovery_code"


def required(user: User, settings: Settings) -> bool:
    """Admins always need a second factor; ops users when MFA_FOR_EVERYONE is set."""
    return user.role == Role.ADMIN.value or settings.mfa_for_everyone


def needs_enrolment(user: User, settings: Settings) -> bool:
    """True for a user who must have an authenticator but has none yet."""
    return required(user, settings) and not user.has_totp


def start_enrolment(user: User, token: str, now: datetime) -> str:
    """A fresh secret for the session ``token`` of a user without an authenticator, to show
    once; it replaces any the session was shown, and no other session sees it (the caller
    commits)."""
    if user.has_totp:
        raise ValueError("The user already has an authenticator.")
    secret = totp.new_secret()
    session_records.keep_pending_secret(token, secret, now)
    return secret


def enrolment_started(token: str) -> bool:
    """True when the session ``token`` was shown a key already (it is not shown again)."""
    return session_records.pending_secret(token) is not None


def confirm_enrolment(user: User, token: str, code: str, now: datetime) -> list[str] | None:
    """Turn on the secret the session ``token`` was shown if ``code`` is right, and end the
    user's other sessions (one that knew only the password must not inherit the new factor);
    return the recovery codes to show once (the caller commits)."""
    secret = session_records.pending_secret(token)
    if user.has_totp or secret is None:
        return None
    step = totp.matching_step(secret, code, now, after=None)
    if step is None:
        return None
    user.totp_secret = secret
    user.totp_enrolled_at = now
    user.totp_last_step = step
    session_records.forget_pending_secret(token)
    session_records.close_other_sessions(user.id, token)
    return recovery_codes.replace_codes(user.id)


def remove_authenticator(user: User) -> None:
    """Forget the user's authenticator and recovery codes, and end every session of theirs
    (with whatever a session was setting up)."""
    user.totp_secret = None
    user.totp_enrolled_at = None
    user.totp_last_step = None
    recovery_codes.remove_codes(user.id)
    session_records.close_all_sessions(user.id)


def _accept_step(user: User, step: int) -> bool:
    """Record ``step`` as used unless a concurrent request got there first (one update)."""
    newer = (User.totp_last_step.is_(None)) | (User.totp_last_step < step)
    accepted = db.session.execute(
        update(User).where(User.id == user.id, newer).values(totp_last_step=step)
        .execution_options(synchronize_session=False))
    return accepted.rowcount == 1


def code_used_before(user: User, code: str, now: datetime) -> bool:
    """Whether ``code`` is the authenticator's code of a step already accepted (typed twice,
    or replayed): refused as the others are, but worth saying so."""
    if not user.has_totp or user.totp_secret is None or user.totp_last_step is None:
        return False
    step = totp.matching_step(user.totp_secret, code, now, after=None)
    return step is not None and step <= user.totp_last_step


def check_second_factor(user: User, code: str, now: datetime) -> SecondFactor | None:
    """Which factor ``code`` is for ``user``: an authenticator code not used before, or an
    unused recovery code (spent by this call); None when it is neither."""
    if not user.has_totp:
        return None
    assert user.totp_secret is not None
    step = totp.matching_step(user.totp_secret, code, now, after=user.totp_last_step)
    if step is not None and _accept_step(user, step):
        return SecondFactor.AUTHENTICATOR
    if recovery_codes.use_code(user.id, code, now):
        return SecondFactor.RECOVERY_CODE
    return None
