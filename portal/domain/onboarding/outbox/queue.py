"""The outbox's queue: a step send kept for later, superseded when fresher data is saved,
claimed when due by one drain alone (``claim`` commits; nothing else here does).

A claim is exclusive across processes (``portal.core.row_claims``: ``FOR UPDATE SKIP LOCKED`` on
PostgreSQL, a conditional ``UPDATE`` elsewhere). A claim older than the claims' ``LEASE`` is
from a drain that died and is taken again (the step sends are PUTs, safe to repeat). The drain
itself sends the way a step send goes, so it sits beside the sending
(``portal.domain.onboarding.outbox.drain``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, or_, select, update

from portal.core import clock
from portal.core.db import db
from portal.core.models.outbox import LIVE_STATES, OutboxItem, OutboxState
from portal.core.models.step import StepDraft, StepState
from portal.core.row_claims import LEASE, claim_rows

#: The wait after the first failure; it doubles with each failure up to ``MAX_DELAY``.
FIRST_DELAY = timedelta(seconds=30)
MAX_DELAY = timedelta(hours=1)
#: The longest ``Retry-After`` honoured: a day (an absurd wait is a gateway's mistake, and a
#: newer save, or "Send now", still goes out at once).
MAX_RETRY_AFTER = timedelta(days=1)


def backoff(failures: int, retry_after: float | None = None) -> timedelta:
    """How long to wait after ``failures`` failed sends: capped exponential, no jitter; never
    less than the ``retry_after`` seconds the gateway asked for (429, 503)."""
    doublings = min(max(failures - 1, 0), 20)  # far past the cap, short of an overflow
    wait = min(MAX_DELAY, FIRST_DELAY * 2 ** doublings)
    if retry_after is not None and retry_after > wait.total_seconds():
        return timedelta(seconds=min(retry_after, MAX_RETRY_AFTER.total_seconds()))
    return wait


def enqueue(draft: StepDraft, body: Any, error: str,
            retry_after: float | None = None) -> OutboxItem:
    """Queue ``body`` (validated, built from ``draft``) after a failed send, its first attempt
    no earlier than ``retry_after`` seconds from now when the gateway named a wait; marks the
    step."""
    supersede(draft.merchant_id, draft.step)
    now = clock.utcnow()
    item = OutboxItem(merchant_id=draft.merchant_id, step=draft.step,
                      draft_version=draft.version, payload=body, state=OutboxState.PENDING,
                      attempts=1, next_attempt_at=now + backoff(1, retry_after),
                      last_error=error[:300], created_at=now)
    db.session.add(item)
    draft.state = StepState.QUEUED
    return item


def supersede(merchant_id: int, step: str) -> int:
    """Retire the step's waiting item: newer data was saved, the old must never be sent."""
    result = db.session.execute(
        update(OutboxItem)
        .where(OutboxItem.merchant_id == merchant_id, OutboxItem.step == step,
               OutboxItem.state == OutboxState.PENDING)
        .values(state=OutboxState.SUPERSEDED, finished_at=clock.utcnow()),
        execution_options={"synchronize_session": False},
    )
    return result.rowcount


def live_item(merchant_id: int, step: str) -> OutboxItem | None:
    """The step's item still to be sent (pending or being sent), if any."""
    return db.session.scalar(
        select(OutboxItem)
        .where(OutboxItem.merchant_id == merchant_id, OutboxItem.step == step,
               OutboxItem.state.in_(LIVE_STATES))
        .order_by(OutboxItem.id.desc()).limit(1))


def claimable(now: datetime) -> ColumnElement[bool]:
    """Due pending items, and items whose claim went stale."""
    return or_(
        and_(OutboxItem.state == OutboxState.PENDING, OutboxItem.next_attempt_at <= now),
        and_(OutboxItem.state == OutboxState.SENDING, OutboxItem.claimed_at <= now - LEASE),
    )


def claim(limit: int) -> list[int]:
    """Mark up to ``limit`` due items as being sent by this drain alone; commits."""
    now = clock.utcnow()
    return claim_rows(OutboxItem, claimable(now), (OutboxItem.next_attempt_at, OutboxItem.id),
                      limit, {"state": OutboxState.SENDING, "claimed_at": now})
