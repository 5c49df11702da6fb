"""Links that let a user choose a password: a forgotten-password reset, or an invitation.

A token is an itsdangerous payload ``{"u": user id, "p": fingerprint of the password hash}``
signed with its purpose's salt and timed on the portal's clock. Choosing a password changes
the hash, so a link works once; any other password change kills it too. Nothing is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from itsdangerous import BadSignature

from portal.core.db import db
from portal.core.models import User
from portal.core.timed_tokens import timed_serializer
from portal.domain.users.passwords import fingerprint, same_fingerprint


@dataclass(frozen=True)
class Purpose:
    """What a link is for: its salt and how long it lasts."""

    salt: str
    lifetime: timedelta
    #: How the emails and pages say how long it lasts.
    lasts: str
    #: The page the link opens.
    endpoint: str


RESET = Purpose("portal.password-reset", timedelta(minutes=30), "30 minutes",
                "team.reset_password")
INVITE = Purpose("portal.team-invitation", timedelta(days=3), "3 days", "team.accept_invitation")


def token_for(secret_key: str, user: User, purpose: Purpose) -> str:
    """A link token for ``user`` that dies when their password changes or time runs out."""
    payload = {"u": user.id, "p": fingerprint(user.password_hash)}
    return timed_serializer(secret_key, purpose.salt).dumps(payload)


def user_for(secret_key: str, token: str, purpose: Purpose) -> User | None:
    """The active user a live, unused token was issued to, else None (expired, used, forged)."""
    try:
        payload = timed_serializer(secret_key, purpose.salt).loads(
            token, max_age=int(purpose.lifetime.total_seconds()))
    except BadSignature:  # SignatureExpired is one
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("u"), int):
        return None
    user = db.session.get(User, payload["u"])
    if user is None or not user.active:
        return None
    if not same_fingerprint(user.password_hash, payload.get("p", "")):
        return None
    return user
