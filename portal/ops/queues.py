"""Queue depths read from the database at scrape time: the outbox of step sends, the job queue
and the webhook events, each with the age of its oldest waiting item.

Read at scrape time, the numbers are the same whichever process answers and need no process to
keep them up to date. The tables are named here, not imported as models: the job queue's table
arrives with the workers (issue 15, part 1), and a table not (yet) in the database is skipped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector
from sqlalchemy import ColumnElement, column, func, inspect, select, table

from portal import clock
from portal.db import db
from portal.models.types import UTCDateTime


@dataclass(frozen=True)
class Queue:
    """A table whose rows wait for work: which rows wait, and since when."""

    name: str
    table: str
    waiting: ColumnElement[bool]
    #: When a waiting row started waiting (its age is measured from there).
    since: str


QUEUES = (
    Queue("outbox", "outbox_items", column("state").in_(("pending", "sending")), "created_at"),
    # a periodic job waits from when it is due, not from when its schedule was first created
    Queue("jobs", "jobs", column("state").in_(("pending", "running")), "run_at"),
    Queue("webhook_events", "webhook_events", column("processed_at").is_(None), "received_at"),
)


def waiting(queue: Queue, now: datetime) -> tuple[int, float]:
    """How many rows of ``queue`` wait, and the age in seconds of the oldest one that is due."""
    since = column(queue.since, UTCDateTime())
    rows = table(queue.table, since)
    count = db.session.scalar(select(func.count()).select_from(rows).where(queue.waiting)) or 0
    oldest = db.session.scalar(select(func.min(since)).select_from(rows)
                               .where(queue.waiting, since <= now))
    return count, 0.0 if oldest is None else max(0.0, (now - oldest).total_seconds())


def webhooks_received() -> int:
    """Every webhook event the portal has stored (duplicates are not stored twice)."""
    return db.session.scalar(select(func.count()).select_from(table("webhook_events"))) or 0


class QueueCollector(Collector):
    """Depth and oldest age of each queue, read when Prometheus scrapes (in the app context of
    the /metrics request)."""

    def collect(self) -> Iterable[Metric]:
        """One gauge pair for the queues, one counter of webhook events received."""
        depth = GaugeMetricFamily("portal_queue_depth", "Items waiting in a queue",
                                  labels=["queue"])
        age = GaugeMetricFamily("portal_queue_oldest_age_seconds",
                                "Age of the oldest item waiting in a queue", labels=["queue"])
        present = set(inspect(db.session.connection()).get_table_names())
        now = clock.utcnow()
        for queue in QUEUES:
            if queue.table in present:
                count, oldest = waiting(queue, now)
                depth.add_metric([queue.name], count)
                age.add_metric([queue.name], oldest)
        received = webhooks_received() if "webhook_events" in present else 0
        db.session.rollback()
        yield depth
        yield age
        yield CounterMetricFamily("portal_webhook_events_received",
                                  "Webhook events received and stored", value=received)
