"""Delivering the events, by the worker (the periodic ``partner_webhooks`` job): claim a due
delivery under a lease, post it signed, and record how it went; retried on the schedule
(``schedule``), then failed.

At least once, never lost: a delivery is claimed (``pending`` -> ``sending``, committed) before
its POST and marked ``delivered`` only after a 2xx. A worker killed in between leaves it
``sending``; once its lease runs out the next run claims it again and posts it again with the
same ``webhook-id``, so a receiver may see an event twice and dedupes it by that id. An outcome
is recorded only by the claim that made the try (its claim time must still be the row's).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, or_, update

from portal.core import clock
from portal.core.db import db
from portal.core.models.partner_webhook import DeliveryState, PartnerDelivery, PartnerEndpoint
from portal.core.row_claims import claim_rows
from portal.domain.partner_events.schedule import wait_after
from portal.domain.partner_events.sending import Answer, post
from portal.domain.partner_events.signing import signed_headers, signing_secrets


@dataclass
class DeliveryReport:
    """What one run did."""

    delivered: int = 0
    retrying: int = 0
    failed: int = 0

    def summary(self) -> str:
        """One line for the log."""
        return (f"webhooks out: {self.delivered} delivered, {self.retrying} to try again, "
                f"{self.failed} failed")


def deliver_due(allow_loopback: bool, lease: timedelta,
                stopping: threading.Event) -> DeliveryReport:
    """Claim and send due deliveries one at a time until none is due or ``stopping`` is set;
    commits."""
    report = DeliveryReport()
    while not stopping.is_set():
        claimed = claim_next(lease)
        if claimed is None:
            break
        state = send_claimed(*claimed, allow_loopback)
        if state == DeliveryState.DELIVERED:
            report.delivered += 1
        elif state == DeliveryState.PENDING:
            report.retrying += 1
        else:
            report.failed += 1
    return report


def claim_next(lease: timedelta) -> tuple[int, datetime] | None:
    """The oldest due delivery, claimed: one pending whose time has come, or one left
    ``sending`` by a worker whose lease ran out; its id and claim time. Commits."""
    now = clock.utcnow()
    due = or_(and_(PartnerDelivery.state == DeliveryState.PENDING,
                   PartnerDelivery.next_attempt_at <= now),
              and_(PartnerDelivery.state == DeliveryState.SENDING,
                   PartnerDelivery.claimed_at < now - lease))
    ids = claim_rows(PartnerDelivery, due, [PartnerDelivery.next_attempt_at, PartnerDelivery.id],
                     1, {"state": DeliveryState.SENDING, "claimed_at": now,
                         "attempts": PartnerDelivery.attempts + 1})
    return (ids[0], now) if ids else None


def send_claimed(delivery_id: int, claimed_at: datetime, allow_loopback: bool) -> str:
    """Post one claimed delivery and record the answer; the state it ends in. Commits."""
    delivery = db.session.get(PartnerDelivery, delivery_id, populate_existing=True)
    assert delivery is not None  # claimed just now; deliveries are never deleted alone
    endpoint = db.session.get(PartnerEndpoint, delivery.endpoint_id)
    if endpoint is None or not endpoint.active:
        answer = Answer(None, "The endpoint was disabled before the event could be sent.")
        return _record(delivery, claimed_at, answer, final=True)
    body = json.dumps(delivery.event.payload, separators=(",", ":"), sort_keys=True)
    now = clock.utcnow()
    headers = signed_headers(delivery.event.event_id, body, signing_secrets(endpoint, now), now)
    db.session.commit()  # no transaction held open across the POST
    answer = post(endpoint.url, body, headers, allow_loopback)
    return _record(delivery, claimed_at, answer, final=False)


def _record(delivery: PartnerDelivery, claimed_at: datetime, answer: Answer,
            final: bool) -> str:
    now = clock.utcnow()
    wait = None if final or answer.delivered else wait_after(delivery.attempts)
    if answer.delivered:
        state, values = DeliveryState.DELIVERED, {"delivered_at": now}
    elif wait is not None:
        state, values = DeliveryState.PENDING, {"next_attempt_at": now + wait}
    else:
        state, values = DeliveryState.FAILED, {}
    db.session.execute(
        update(PartnerDelivery)
        .where(PartnerDelivery.id == delivery.id, PartnerDelivery.state == DeliveryState.SENDING,
               PartnerDelivery.claimed_at == claimed_at)
        .values(state=state, last_status=answer.status, last_error=answer.words[:300],
                last_attempt_at=now, claimed_at=None, **values),
        execution_options={"synchronize_session": False})
    db.session.commit()
    return state
