"""Forgotten passwords: email a 30-minute reset link, the same answer whether or not the
email is known, throttled per email and per client address, every request audited."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, func, select

from portal import clock
from portal.audit import record
from portal.auth import accounts
from portal.config import Settings
from portal.db import db
from portal.mail import MailError, compose, send
from portal.mail.urls import absolute_url
from portal.models import PasswordResetRequest, User
from portal.team import tokens

#: Requests counted over this window; beyond the limits no email is sent.
WINDOW = timedelta(hours=1)
PER_EMAIL = 3
PER_ADDRESS = 10

RESET_BODY = """Hello,

Someone asked to reset the password of {email} on the Partner Onboarding Portal.
If it was you, choose a new password here (the link works once, for {lasts}):

{link}

If it was not you, ignore this email: your password stays as it is.
"""

INVITE_BODY = """Hello,

{inviter} added you to the Partner Onboarding Portal as {role}.
Choose your password here (the link works once, for {lasts}):

{link}

Then sign in with {email}.
"""


def _recent(column: object, value: str) -> int:
    since = clock.utcnow() - WINDOW
    return db.session.scalar(select(func.count(PasswordResetRequest.id)).where(
        column == value, PasswordResetRequest.requested_at >= since)) or 0


def throttled(email: str, address: str) -> bool:
    """True when this email or address asked too often within the window."""
    return (_recent(PasswordResetRequest.email, email) >= PER_EMAIL
            or _recent(PasswordResetRequest.address, address) >= PER_ADDRESS)


def _link_mail(settings: Settings, user: User, purpose: tokens.Purpose, subject: str,
               body: str, **values: str) -> None:
    token = tokens.token_for(settings.secret_key, user, purpose)
    link = absolute_url(purpose.endpoint, token=token)
    text = body.format(link=link, lasts=purpose.lasts, email=user.email, **values)
    send(settings, compose(settings, user.email, subject, text))


def request_reset(settings: Settings, email: str, address: str) -> None:
    """Email a reset link if ``email`` is an active user's and no throttle applies; commits.

    The caller answers the same in every case, so nobody learns which emails have accounts.
    """
    address_key = address[:64]
    email = accounts.normalize_email(email)[:254]
    db.session.execute(delete(PasswordResetRequest).where(
        PasswordResetRequest.requested_at < clock.utcnow() - WINDOW))  # only the window counts
    outcome = "throttled" if throttled(email, address_key) else "ok"
    db.session.add(PasswordResetRequest(email=email, address=address_key,
                                        requested_at=clock.utcnow()))
    user = accounts.find_user(email)
    if outcome == "ok" and (user is None or not user.active):
        outcome = "unknown"
    if outcome == "ok" and user is not None:
        try:
            _link_mail(settings, user, tokens.RESET, "Reset your portal password", RESET_BODY)
        except MailError:
            outcome = "failed"
    record("password_reset.request", outcome=outcome, actor_label="anonymous",
           detail={"email": email, "address": address_key})
    db.session.commit()


def send_invitation(settings: Settings, user: User, inviter: str) -> None:
    """Email a new member a 3-day link to choose their password (MailError if it fails)."""
    role = "an administrator" if user.role == "admin" else "an operations user"
    _link_mail(settings, user, tokens.INVITE, "You are invited to the Partner Onboarding Portal",
               INVITE_BODY, inviter=inviter, role=role)


def choose_password(user: User, password: str, purpose: tokens.Purpose) -> None:
    """Set the password chosen through a link (which dies with the change); audited, commits."""
    accounts.set_password(user, password)
    record("password_reset.complete" if purpose is tokens.RESET else "user.invitation_accept",
           actor_label=user.email, detail={"email": user.email})
    db.session.commit()
