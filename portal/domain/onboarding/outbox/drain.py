"""Sending what the outbox holds: each due item the outbox's queue hands this drain alone
(:func:`portal.domain.onboarding.outbox.queue.claim`) goes as a step send goes
(:func:`portal.domain.onboarding.sending.call_gateway`). The worker drains it on every pass
(``portal.app.worker.loop``), and nothing else does.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import select

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.outbox import OutboxItem, OutboxState
from portal.core.models.step import StepDraft, StepState
from portal.domain.audit.service import Actor
from portal.domain.onboarding.outbox.queue import backoff, claim
from portal.domain.onboarding.sending import call_gateway
from portal.domain.onboarding.steps import BY_KEY
from portal.gateway.onboarding.client import OnboardingClient

#: Items claimed per pass.
BATCH = 100
#: Who a queued send's delivery is credited to (the item does not keep who queued it).
OUTBOX = Actor("outbox")


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
        result = call_gateway(client, merchant, BY_KEY[item.step], draft, item.payload,
                              actor=OUTBOX)
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
