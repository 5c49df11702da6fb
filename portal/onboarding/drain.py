"""Sending what the outbox holds: claim due items atomically, send each as a step send goes
(:func:`portal.onboarding.sending.call_gateway`).

A claim is exclusive across processes (``portal.claims``: ``FOR UPDATE SKIP LOCKED`` on
PostgreSQL, a conditional ``UPDATE`` elsewhere). A claim older than ``CLAIM_LEASE`` is from a
drain that died and is taken again (the step sends are PUTs, safe to repeat).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy import ColumnElement, and_, or_, select

from portal import clock
from portal.claims import claim_rows
from portal.db import db
from portal.gateway.onboarding_client import OnboardingClient
from portal.models.merchant import Merchant
from portal.models.outbox import OutboxItem, OutboxState
from portal.models.step import StepDraft, StepState
from portal.onboarding.sending import call_gateway
from portal.onboarding.steps import BY_KEY
from portal.outbox.queue import backoff

#: How long a claim protects an item: far beyond a send's timeouts and retries.
CLAIM_LEASE = timedelta(minutes=10)
#: Items claimed per pass.
BATCH = 100


class Outcome(StrEnum):
    """What became of one claimed item."""

    SENT = "sent"
    RESCHEDULED = "rescheduled"
    FAILED = "failed"
    SUPERSEDED = "superseded"


@dataclass
class DrainReport:
    """How many items each outcome had in one pass."""

    sent: int = 0
    rescheduled: int = 0
    failed: int = 0
    superseded: int = 0

    def add(self, outcome: Outcome) -> None:
        """Count one item's outcome."""
        setattr(self, outcome.value, getattr(self, outcome.value) + 1)

    def summary(self) -> str:
        """One line for the log."""
        return (f"outbox: {self.sent} sent, {self.rescheduled} rescheduled, {self.failed} "
                f"failed, {self.superseded} superseded")


def drain(client: OnboardingClient, limit: int = BATCH) -> DrainReport:
    """Send every due item once; commits after each."""
    report = DrainReport()
    for item_id in claim(limit):
        report.add(deliver(client, item_id))
    return report


def claimable(now: datetime) -> ColumnElement[bool]:
    """Due pending items, and items whose claim went stale."""
    return or_(
        and_(OutboxItem.state == OutboxState.PENDING, OutboxItem.next_attempt_at <= now),
        and_(OutboxItem.state == OutboxState.SENDING, OutboxItem.claimed_at <= now - CLAIM_LEASE),
    )


def claim(limit: int) -> list[int]:
    """Mark up to ``limit`` due items as being sent by this drain alone; commits."""
    now = clock.utcnow()
    return claim_rows(OutboxItem, claimable(now), (OutboxItem.next_attempt_at, OutboxItem.id),
                      limit, {"state": OutboxState.SENDING, "claimed_at": now})


def deliver(client: OnboardingClient, item_id: int) -> Outcome:
    """Send one claimed item the way a step send goes and store the outcome; commits."""
    item = db.session.get(OutboxItem, item_id)
    assert item is not None
    merchant = db.session.get(Merchant, item.merchant_id)
    draft = db.session.scalar(select(StepDraft).where(StepDraft.merchant_id == item.merchant_id,
                                                      StepDraft.step == item.step))
    if merchant is None or draft is None or draft.version != item.draft_version:
        outcome = _finish(item, Outcome.SUPERSEDED, "a newer save of the step came first")
    else:
        result = call_gateway(client, merchant, BY_KEY[item.step], draft, item.payload)
        if result.ok:
            outcome = _finish(item, Outcome.SENT)
        elif result.unavailable:
            outcome = _reschedule(item, draft, result.message, result.retry_after)
        else:
            outcome = _finish(item, Outcome.FAILED, result.message)
    db.session.commit()
    return outcome


def _finish(item: OutboxItem, outcome: Outcome, error: str = "") -> Outcome:
    item.state = OutboxState(outcome.value)
    item.finished_at = clock.utcnow()
    item.last_error = error[:300] or item.last_error
    return outcome


def _reschedule(item: OutboxItem, draft: StepDraft, error: str,
                retry_after: float | None) -> Outcome:
    item.attempts += 1
    item.state = OutboxState.PENDING
    item.claimed_at = None
    item.next_attempt_at = clock.utcnow() + backoff(item.attempts, retry_after)
    item.last_error = error[:300]
    draft.state = StepState.QUEUED
    return Outcome.RESCHEDULED
