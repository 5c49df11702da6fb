"""Forgotten passwords: email a 30-minute reset link, the same answer whether or not the
email is known, throttled per email and per client address, every request audited.

The request only notes what was asked and queues a job (``portal.domain.jobs.account_mail``): it
never looks the account up, so a known and an unknown email run the very same statements and nothing
in its time tells them apart. A worker then finds the account and sends the link; a worker that
died while sending is not followed by a second email (the job says so when taken over).
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, func, select

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.mail.sender import MailError, compose, send
from portal.core.mail.urls import absolute_url
from portal.core.models import PasswordResetRequest, User
from portal.domain.audit.service import ANONYMOUS, SYSTEM, Actor, record
from portal.domain.jobs.account_mail import queue_reset
from portal.domain.users import accounts
from portal.features.team import tokens

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


def request_reset(email: str, address: str) -> None:
    """Note a request for a reset link and queue its email for a worker, unless a throttle
    applies; commits. Whether ``email`` has an account is not looked at here (see above), and
    the caller answers the same in every case."""
    address_key = address[:64]
    email = accounts.normalize_email(email)[:254]
    now = clock.utcnow()
    db.session.execute(delete(PasswordResetRequest).where(
        PasswordResetRequest.requested_at < now - WINDOW))  # only the window counts
    too_many = throttled(email, address_key)
    asked = PasswordResetRequest(email=email, address=address_key, requested_at=now)
    db.session.add(asked)
    db.session.flush()
    if too_many:
        _audit_request(asked, "throttled")
    else:
        queue_reset(asked.id)
    db.session.commit()


def _audit_request(asked: PasswordResetRequest, outcome: str) -> None:
    record("password_reset.request", actor=ANONYMOUS, outcome=outcome,
           detail={"email": asked.email, "address": asked.address})


def mail_reset(settings: Settings, request_id: int, attempt: int) -> None:
    """The worker's half: email the reset link if the request's email is an active user's;
    audited with how it went, commits. A second ``attempt`` (the first worker died holding the
    job) sends nothing: the first may have sent it."""
    asked = db.session.get(PasswordResetRequest, request_id)
    if asked is None:
        return  # older than the window: deleted with its link's use
    user = accounts.find_user(asked.email)
    outcome = "ok"
    if attempt > 1:
        outcome = "interrupted"
    elif user is None or not user.active:
        outcome = "unknown"
    else:
        try:
            _link_mail(settings, user, tokens.RESET, "Reset your portal password", RESET_BODY)
        except MailError:
            outcome = "failed"
    _audit_request(asked, outcome)
    db.session.commit()


def send_invitation(settings: Settings, user: User, inviter: str) -> None:
    """Email a new member a 3-day link to choose their password (MailError if it fails)."""
    role = "an administrator" if user.role == "admin" else "an operations user"
    _link_mail(settings, user, tokens.INVITE, "You are invited to the Partner Onboarding Portal",
               INVITE_BODY, inviter=inviter, role=role)


def mail_invitation(settings: Settings, user_id: int, inviter_id: int | None,
                    attempt: int) -> None:
    """The worker's half of an invitation queued when adding an administrator was approved;
    audited, as the inviter's, with how it went (never sent twice, as ``mail_reset``), commits."""
    user = db.session.get(User, user_id)
    inviter = db.session.get(User, inviter_id) if inviter_id is not None else None
    if user is None or not user.active:
        return
    outcome = "interrupted" if attempt > 1 else "ok"
    if attempt == 1:
        try:
            send_invitation(settings, user, inviter.email if inviter else "An administrator")
        except MailError:
            outcome = "failed"
    record("user.invitation", actor=Actor.of(inviter) if inviter else SYSTEM, outcome=outcome,
           detail={"email": user.email})
    db.session.commit()


def choose_password(user: User, password: str, purpose: tokens.Purpose) -> None:
    """Set the password chosen through a link (which dies with the change); audited, commits."""
    accounts.set_password(user, password)
    record("password_reset.complete" if purpose is tokens.RESET else "user.invitation_accept",
           actor=Actor.of(user), detail={"email": user.email})
    db.session.commit()
