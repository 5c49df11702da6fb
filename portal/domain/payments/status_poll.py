"""The worker's payment status poll: read every payment whose outcome is not final and whose
next read is due, and apply what the gateway says (docs/gateway-contract.md, "Polling").

A customer whose return from the hosted page never reaches the portal leaves a hold waiting;
a call whose answer was lost leaves a payment "outcome unknown". Both are settled here without
anyone pressing Refresh status. Each payment is read and applied in a transaction of its own:
a worker killed mid-way leaves the rest due for the next run, and a read is safe to repeat.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.domain.audit.service import Actor
from portal.domain.payments import credentials as creds
from portal.domain.payments import polling
from portal.domain.payments.status_read import refresh

log = logging.getLogger("portal.payments")

#: The actor of the audit entries the poll writes.
POLL_ACTOR = "status poll"
POLL = Actor(POLL_ACTOR)
#: Most payments read in one run; the rest stay due for the next.
BATCH = 500


@dataclass
class PollSummary:
    """What one run of the poll did."""

    read: int = 0
    moved: int = 0
    failed: int = 0
    #: Not read this run: no usable credentials, read moments ago, or its merchant's reads
    #: are slowed down (a rate-limit answer came for another of its payments).
    skipped: int = 0

    def summary(self) -> str:
        """One log line."""
        return (f"payment poll: {self.read} read, {self.moved} changed, {self.failed} could not "
                f"be read, {self.skipped} skipped (no usable credentials, read moments ago, or "
                f"the gateway asked us to slow down)")


def due_payments(now: datetime, limit: int = BATCH) -> list[Payment]:
    """The payments whose next read is due, longest waiting first."""
    return list(db.session.scalars(
        select(Payment).where(Payment.next_poll_at <= now)
        .order_by(Payment.next_poll_at, Payment.id).limit(limit)))


def poll_once(settings: Settings, now: datetime, limit: int = BATCH) -> PollSummary:
    """Read and apply the status of every due payment (at most ``limit``); commits each."""
    summary = PollSummary()
    rules = polling.rules_of(settings)
    slowed: set[int] = set()  # merchants the gateway asked to slow down in this run (per MID)
    for payment in due_payments(now, limit):
        before = (payment.status, payment.action_state)
        if payment.merchant_id in slowed or polling.too_soon(payment, now):
            summary.skipped += 1
            payment.next_poll_at = now + polling.SHORTEST_GAP
            db.session.commit()
            continue
        merchant = db.session.get(Merchant, payment.merchant_id)
        current = creds.credentials_of(merchant) if merchant else None
        try:
            client = creds.client_for(settings, current) if current else None
        except creds.CredentialsError as exc:
            log.warning("payment poll: payment %s cannot be read: %s", payment.id, exc)
            client = None
        if client is None:
            summary.skipped += 1
            payment.next_poll_at = now + polling.LONGEST_WAIT
            db.session.commit()
            continue
        result = refresh(client, payment, POLL, rules)
        if payment.rate_limited_reads:
            slowed.add(payment.merchant_id)
        summary.read += 1
        summary.failed += 0 if result.ok else 1
        summary.moved += (payment.status, payment.action_state) != before
    return summary
