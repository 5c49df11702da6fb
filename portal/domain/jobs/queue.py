"""Adding, claiming, renewing and ending jobs; only ``claim`` and ``end`` commit.

A claim sets the worker's name and a lease; the worker renews the lease while it works (each
bulk row's result is written only if the lease is still its own). A job whose lease ran out is
claimable again: the worker that held it died, and another one takes it over.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import ColumnElement, and_, or_, select, update
from sqlalchemy.exc import IntegrityError

from portal.core import clock
from portal.core.db import db
from portal.core.models.job import Job, JobState
from portal.core.row_claims import LEASE, claim_rows

#: Claims after which a job that never ended is given up (its workers keep dying on it).
MAX_ATTEMPTS = 5


class JobEnd(StrEnum):
    """How a handler left its job."""

    DONE = "done"
    FAILED = "failed"
    #: Handed back unfinished (the worker is stopping): another worker goes on with it now.
    RELEASED = "released"
    #: The lease was taken over by another worker: this one leaves the job alone.
    LOST = "lost"


@dataclass(frozen=True)
class JobRun:
    """What a handler gets: its job's id and payload, and the worker running it."""

    job_id: int
    payload: dict[str, Any]
    worker: str
    lease: timedelta
    #: Set when the worker is asked to stop: a long job releases itself at the next chance.
    stopping: threading.Event
    #: This claim's number: above 1, a worker died holding the job (it may have done some of
    #: it, e.g. sent an email).
    attempt: int = 1

    def still_mine(self) -> bool:
        """Renew the lease in the caller's transaction; False once another worker holds it."""
        return renew(self.job_id, self.worker, self.lease)


def enqueue(kind: str, payload: dict[str, Any], run_at: datetime | None = None) -> Job:
    """Add a job, due at ``run_at`` (default now), in the caller's transaction; no commit."""
    job = Job(kind=kind, payload=payload, state=JobState.PENDING,
              run_at=run_at or clock.utcnow(), worker="", attempts=0, last_error="")
    db.session.add(job)
    return job


def schedule(name: str, kind: str, every: timedelta) -> bool:
    """Make sure the periodic job ``name`` exists (due now the first time); True if added.

    Its interval is the one given when it was added; commits.
    """
    if db.session.scalar(select(Job.id).where(Job.schedule == name)) is not None:
        return False
    job = enqueue(kind, {"every": every.total_seconds()})
    job.schedule = name
    try:
        db.session.commit()
    except IntegrityError:  # another worker added it at the same moment
        db.session.rollback()
        return False
    return True


def claimable(now: datetime) -> ColumnElement[bool]:
    """Due pending jobs, and running jobs whose lease ran out."""
    return or_(and_(Job.state == JobState.PENDING, Job.run_at <= now),
               and_(Job.state == JobState.RUNNING, Job.lease_until <= now))


def claim(worker: str, lease: timedelta = LEASE) -> Job | None:
    """The oldest due job, now held by ``worker`` alone until the lease ends; commits."""
    now = clock.utcnow()
    ids = claim_rows(Job, claimable(now), (Job.run_at, Job.id), 1, {
        "state": JobState.RUNNING, "worker": worker, "lease_until": now + lease,
        "attempts": Job.attempts + 1})
    return db.session.get(Job, ids[0], populate_existing=True) if ids else None


def renew(job_id: int, worker: str, lease: timedelta = LEASE) -> bool:
    """Extend ``worker``'s lease; False when the job is no longer its own. No commit."""
    result = db.session.execute(
        update(Job).where(_held_by(job_id, worker))
        .values(lease_until=clock.utcnow() + lease),
        execution_options={"synchronize_session": False})
    return result.rowcount == 1


def end(job: Job, worker: str, how: JobEnd, error: str = "") -> None:
    """Store how the job ended, unless another worker holds it now; commits.

    A periodic job goes back to pending, due one interval later, whatever the outcome.
    """
    if how is JobEnd.LOST:  # the job is another worker's now: nothing of it is ours to store
        db.session.commit()
        return
    now = clock.utcnow()
    values: dict[str, Any] = {"worker": "", "lease_until": None}
    if how is not JobEnd.RELEASED:
        values["last_error"] = error[:300]
    if job.schedule is not None:
        values |= {"state": JobState.PENDING, "attempts": 0, "finished_at": now,
                   "run_at": now + timedelta(seconds=float(job.payload["every"]))}
    elif how is JobEnd.RELEASED:
        values |= {"state": JobState.PENDING, "attempts": Job.attempts - 1}
    else:
        values |= {"state": JobState(how.value), "finished_at": now}
    db.session.execute(update(Job).where(_held_by(job.id, worker)).values(**values),
                       execution_options={"synchronize_session": False})
    db.session.commit()


def _held_by(job_id: int, worker: str) -> ColumnElement[bool]:
    return and_(Job.id == job_id, Job.worker == worker, Job.state == JobState.RUNNING)
