"""Background work queued in the database: a bulk import, the periodic sync, the reminders.

The database is the queue on purpose: a job is added in the same transaction as the data it
concerns. Workers claim jobs (``portal.domain.jobs.queue``) under a lease that another worker takes
over when it runs out (the worker that held it died).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import UTCDateTime


class JobState(StrEnum):
    """Where a job stands."""

    PENDING = "pending"
    #: Claimed by one worker until ``lease_until``; after that another worker may take it.
    RUNNING = "running"
    DONE = "done"
    #: The job raised an error, or its workers died too often: it is not run again.
    FAILED = "failed"


class Job(Base):
    """One piece of background work: what to run, when, and which worker holds it."""

    __tablename__ = "jobs"
    __table_args__ = (Index("ix_jobs_state_run_at", "state", "run_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    #: The handler that runs it (``portal.app.worker.tasks``).
    kind: Mapped[str] = mapped_column(String(32))
    #: A periodic job's name: one row per schedule, put back to pending after each run.
    schedule: Mapped[str | None] = mapped_column(String(32), unique=True)
    #: What the handler needs (ids and settings only, never personal data).
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    state: Mapped[str] = mapped_column(String(16), default=JobState.PENDING)
    run_at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: The worker holding the claim (host:pid) and until when.
    worker: Mapped[str] = mapped_column(String(128), default="")
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: Claims so far (a claim taken over after a crash counts again).
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str] = mapped_column(String(300), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
