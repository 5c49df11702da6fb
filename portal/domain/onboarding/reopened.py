"""A locked step open again for one change: the gateway's support reset the record for a change
request of its section (``portal.domain.change_requests``), and sending the step applies it.

Pages that list many locked merchants ask for every one of their steps; the reopened steps are
read once per session until its next commit or rollback, so a list costs one statement more.
"""

from __future__ import annotations

from sqlalchemy import event, select
from sqlalchemy.orm import Session

from portal.core import clock
from portal.core.db import db
from portal.core.models.change_request import ChangeRequest, ChangeState
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import Actor, record

#: The steps holding a section a change request changes (the sections' own table names them;
#: a test holds the two together).
CHANGEABLE_STEPS = frozenset({"bank", "signatory", "business", "products"})
#: The session's cache of the reopened (merchant id, step) pairs.
_CACHE = "reopened_steps"


def reopened(merchant: Merchant, step_key: str) -> bool:
    """Whether a change request had the gateway reset ``step_key`` of ``merchant`` (only the
    steps that hold a section a change request changes can be)."""
    if step_key not in CHANGEABLE_STEPS or merchant.id is None:
        return False
    info = db.session.info
    if _CACHE not in info:
        info[_CACHE] = frozenset((merchant_id, step) for merchant_id, step in db.session.execute(
            select(ChangeRequest.merchant_id, ChangeRequest.step)
            .where(ChangeRequest.state == ChangeState.REOPENED)))
    return (merchant.id, step_key) in info[_CACHE]


@event.listens_for(Session, "after_commit")
@event.listens_for(Session, "after_rollback")
def _forget(session: Session) -> None:
    """What was read of reopened steps holds until the session's transaction ends."""
    session.info.pop(_CACHE, None)


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
