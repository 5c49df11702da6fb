"""A locked step open again for one change: the gateway's support reset the record for a change
request of its section (``portal.domain.change_requests``), and sending the step applies it."""

from __future__ import annotations

from sqlalchemy import select

from portal.core import clock
from portal.core.db import db
from portal.core.models.change_request import ChangeRequest, ChangeState
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import Actor, record


def reopened_request(merchant: Merchant, step_key: str) -> ChangeRequest | None:
    """The change request whose reset record opens ``step_key`` again, if any."""
    if merchant.id is None:
        return None
    return db.session.scalar(select(ChangeRequest).where(
        ChangeRequest.merchant_id == merchant.id, ChangeRequest.step == step_key,
        ChangeRequest.state == ChangeState.REOPENED).limit(1))


def apply_reopened(merchant: Merchant, step_key: str, actor: Actor) -> None:
    """``step_key`` was sent: its reopened change request is applied and the step locks again
    (audited; commits)."""
    change = reopened_request(merchant, step_key)
    if change is None:
        return
    change.state, change.state_at, change.open_key = ChangeState.APPLIED, clock.utcnow(), None
    record("change_request.applied", actor=actor, merchant_id=merchant.id,
           detail={"change": change.id, "section": change.section,
                   "from": ChangeState.REOPENED.value, "to": ChangeState.APPLIED.value})
    db.session.commit()
