"""Status moves: which ones are allowed, and recording each one with its source.

A read can be older than what the portal already knows (a slow call, a replayed webhook), so
the status only moves forward: INITIATED < IN_PROGRESS < PENDING_VERIFICATION < PENDING_REVIEW
< RFI, APPROVED, REJECTED. RFI -> PENDING_REVIEW is the one move back (the requested documents
arrived); APPROVED and REJECTED never change.
"""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm.attributes import set_committed_value

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.notice import Notice, NoticeKind
from portal.core.models.status_change import StatusChange
from portal.core.onboarding_statuses import FINAL_STATUSES, ROWS, TOLD_STATUSES
from portal.domain.audit.service import Actor, record
from portal.domain.partner_events import merchant_events

#: Each status's place on the forward path (its row's rank).
RANK: dict[str, int] = {code: row.rank for code, row in ROWS.items()}


def is_final(status: str | None) -> bool:
    """Whether nothing changes any more after ``status``."""
    return status in FINAL_STATUSES


def may_move(current: str | None, new: str) -> bool:
    """Whether a read saying ``new`` may replace ``current`` (forward only, see module doc)."""
    if new not in RANK or is_final(current) or new == current:
        return False
    if current is None or current not in RANK:
        return True
    if ROWS[current].returns_to:  # RFI: back to review once the asked documents arrived
        return new in ROWS[current].returns_to | FINAL_STATUSES
    return RANK[new] > RANK[current]


def change_status(merchant: Merchant, new: str | None, source: str, gid: str = "", *,
                  actor: Actor) -> bool:
    """Set the status if it differs, as a compare-and-set, and record the change; no commit.

    The update only lands if the row still holds the status this session read, so two readers
    racing each other cannot both move it (nor move it back). A move to RFI, REJECTED or
    APPROVED adds a notice for the merchant's owner in the same transaction, and every move a
    merchant.status_changed event for partners' software.
    """
    current = merchant.status
    if not new or new == current:
        return False
    expected = Merchant.status.is_(None) if current is None else Merchant.status == current
    with db.session.no_autoflush:  # what is pending goes in the caller's one flush
        result = db.session.execute(
            update(Merchant).where(Merchant.id == merchant.id, expected).values(status=new),
            execution_options={"synchronize_session": False},
        )
    if result.rowcount != 1:
        db.session.flush()  # keep what is pending: the refresh reads the row back
        db.session.refresh(merchant)
        return False
    set_committed_value(merchant, "status", new)
    db.session.add(StatusChange(merchant_id=merchant.id, from_status=current, to_status=new,
                                source=source, at=clock.utcnow(), gid=gid))
    record("status.change", merchant_id=merchant.id, gid=gid,
           detail={"from": current or "", "to": new, "source": source}, actor=actor)
    if new in TOLD_STATUSES:  # its owner is told, by a worker (portal.features.notifications)
        db.session.add_all(Notice.for_owner_of(merchant, NoticeKind.STATUS, status=new))
    merchant_events.status_changed(merchant, current, new)
    merchant.touch()
    return True


def timeline(merchant: Merchant) -> list[StatusChange]:
    """The merchant's status changes, oldest first."""
    return list(db.session.scalars(
        select(StatusChange).where(StatusChange.merchant_id == merchant.id)
        .order_by(StatusChange.at, StatusChange.id)))
