"""Recording audit events: who did it is always given (a user, or a label such as 'webhook'
for work nobody signed in did); the detail is masked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from portal.core import clock
from portal.core.db import db
from portal.core.models import AuditEvent
from portal.core.models.user import User
from portal.core.redaction import mask_mapping


@dataclass(frozen=True)
class Actor:
    """Who an action is credited to: a user (their id and email), or a label such as 'cli'."""

    label: str
    id: int | None = None

    @classmethod
    def of(cls, user: User) -> Actor:
        """The actor that is ``user``."""
        return cls(user.email, user.id)


#: Work no person started: a periodic job, a command.
SYSTEM = Actor("system")
#: What the gateway's webhooks told the portal, and what the portal did about it.
WEBHOOK = Actor("webhook")
#: Someone not signed in (a failed sign-in, a password reset asked for).
ANONYMOUS = Actor("anonymous")


def actor_of(user_id: int | None) -> Actor:
    """The actor that is user ``user_id``; the system when there is none (or it is gone)."""
    user = db.session.get(User, user_id) if user_id is not None else None
    return Actor.of(user) if user is not None else SYSTEM


def record(action: str, *, actor: Actor, outcome: str = "ok", merchant_id: int | None = None,
           gid: str = "", detail: dict[str, Any] | None = None) -> AuditEvent:
    """Add an audit event credited to ``actor`` to the session (the caller commits it with its
    own change). Secrets, PANs and account numbers in ``detail`` are masked first."""
    event = AuditEvent(
        at=clock.utcnow(),
        actor_id=actor.id,
        actor_label=actor.label,
        action=action,
        merchant_id=merchant_id,
        outcome=outcome,
        gid=gid,
        detail=mask_mapping(detail or {}),
    )
    db.session.add(event)
    return event
