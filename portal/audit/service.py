"""Recording audit events: the actor comes from the signed-in user, the detail is masked."""

from __future__ import annotations

from typing import Any

from flask import has_request_context
from flask_login import current_user

from portal import clock
from portal.db import db
from portal.models import AuditEvent
from portal.redaction import mask_mapping

SYSTEM = "system"


def record(action: str, *, outcome: str = "ok", merchant_id: int | None = None, gid: str = "",
           detail: dict[str, Any] | None = None, actor_label: str | None = None) -> AuditEvent:
    """Add an audit event to the session (the caller commits it with its own change).

    The actor is the signed-in user; without one it is ``actor_label`` (e.g. 'webhook'),
    default 'system'. Secrets, PANs and account numbers in ``detail`` are masked first.
    """
    user = current_user if has_request_context() and current_user.is_authenticated else None
    event = AuditEvent(
        at=clock.utcnow(),
        actor_id=user.id if user else None,
        actor_label=user.email if user else (actor_label or SYSTEM),
        action=action,
        merchant_id=merchant_id,
        outcome=outcome,
        gid=gid,
        detail=mask_mapping(detail or {}),
    )
    db.session.add(event)
    return event
