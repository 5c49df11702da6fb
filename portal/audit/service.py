"""Recording audit events: the actor is given, or the signed-in user; the detail is masked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import has_request_context
from flask_login import current_user

from portal.core import clock
from portal.core.db import db
from portal.core.models import AuditEvent
from portal.core.redaction import mask_mapping

SYSTEM = "system"


@dataclass(frozen=True)
class Actor:
    """Who an action is credited to: a user (their id and email), or a label such as 'cli'."""

    label: str
    id: int | None = None


def record(action: str, *, outcome: str = "ok", merchant_id: int | None = None, gid: str = "",
           detail: dict[str, Any] | None = None, actor_label: str | None = None,
           actor: Actor | None = None) -> AuditEvent:
    """Add an audit event to the session (the caller commits it with its own change).

    The actor is ``actor`` when given (work done for someone outside their request, such as
    a bulk import's rows in a worker); else the signed-in user; without one ``actor_label``
    (e.g. 'webhook'), default 'system'. Secrets, PANs and account numbers in ``detail`` are
    masked first.
    """
    if actor is None:
        user = current_user if has_request_context() and current_user.is_authenticated else None
        actor = Actor(user.email, user.id) if user else Actor(actor_label or SYSTEM)
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
