"""Queue depths read from the database at scrape time: the outbox of step sends, the job queue
and the webhook events, each with the age of its oldest waiting item.

Read at scrape time, the numbers are the same whichever process answers and need no process to
keep them up to date. The job queue arrives with the workers (issue 15, part 1): until then its
table is described here by name, and a queue whose table is not in the database is skipped.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector
from sqlalchemy import ColumnElement, TableClause, column, func, inspect, select, table
from sqlalchemy.exc import SQLAlchemyError

from portal.core import clock
from portal.core.db import db
from portal.core.models.outbox import LIVE_STATES, OutboxItem
from portal.core.models.types import UTCDateTime
from portal.core.models.webhook_event import WebhookEvent

log = logging.getLogger(__name__)

#: The workers' job table (``portal.core.models.job``): a job waits while pending or running.
JOBS = table("jobs", column("state"), column("run_at", UTCDateTime()))


@dataclass(frozen=True)
class Queue:
    """A table whose rows wait for work: which rows wait, and since when."""

    name: str
    rows: TableClause
    waiting: ColumnElement[bool]
    #: When a waiting row started waiting (its age is measured from there).
    since: ColumnElement[datetime]


QUEUES = (
    Queue("outbox", OutboxItem.__table__, OutboxItem.state.in_(LIVE_STATES),
          OutboxItem.created_at),
    # a periodic job waits from when it is due, not from when its schedule was first created
    Queue("jobs", JOBS, JOBS.c.state.in_(("pending", "running")), JOBS.c.run_at),
    Queue("webhook_events", WebhookEvent.__table__, WebhookEvent.processed_at.is_(None),
          WebhookEvent.received_at),
)


def waiting(queue: Queue, now: datetime) -> tuple[int, float]:
    """How many rows of ``queue`` wait, and the age in seconds of the oldest one that is due."""
    count = db.session.scalar(
        select(func.count()).select_from(queue.rows).where(queue.waiting)) or 0
    oldest = db.session.scalar(select(func.min(queue.since)).select_from(queue.rows)
                               .where(queue.waiting, queue.since <= now))
    return count, 0.0 if oldest is None else max(0.0, (now - oldest).total_seconds())


def webhooks_received() -> int:
    """Every webhook event the portal has stored (duplicates are not stored twice)."""
    return db.session.scalar(select(func.count()).select_from(WebhookEvent)) or 0


class QueueCollector(Collector):
    """Depth and oldest age of each queue, read when Prometheus scrapes (in the app context of
    the /metrics request). Without a database it reports nothing, and the rest of the scrape
    (the processes' own metrics) is still served."""

    def collect(self) -> Iterable[Metric]:
        """One gauge pair for the queues, one counter of webhook events received."""
        depth = GaugeMetricFamily("portal_queue_depth", "Items waiting in a queue",
                                  labels=["queue"])
        age = GaugeMetricFamily("portal_queue_oldest_age_seconds",
                                "Age of the oldest item waiting in a queue", labels=["queue"])
        try:
            present = set(inspect(db.session.connection()).get_table_names())
            now = clock.utcnow()
            for queue in QUEUES:
                if queue.rows.name in present:
                    count, oldest = waiting(queue, now)
                    depth.add_metric([queue.name], count)
                    age.add_metric([queue.name], oldest)
            received = webhooks_received()
        except SQLAlchemyError:
            log.warning("Queue metrics left out of this scrape: the database cannot be read.")
            return
        finally:
            db.session.rollback()
        yield depth
        yield age
        yield CounterMetricFamily("portal_webhook_events_received",
                                  "Webhook events received and stored", value=received)
