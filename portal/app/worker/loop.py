"""A worker's loop: send the outbox's due step sends, claim a due job and run it, repeat.

Any number of workers may run, on any hosts, against one database: each job and each outbox
item goes to one worker alone. While a worker runs a job a heartbeat renews its lease, so the
lease runs out only when the worker is gone; then another worker takes the job over.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta

from flask import Flask

from portal.app.worker.tasks import HANDLERS, Handler, Intervals
from portal.core.clients import current_onboarding_client
from portal.core.db import db
from portal.core.row_claims import LEASE
from portal.domain.jobs.queue import MAX_ATTEMPTS, JobEnd, JobRun, claim, end, renew, schedule
from portal.domain.onboarding.outbox.drain import drain

log = logging.getLogger("portal.worker")


def worker_name() -> str:
    """This process's name in a claim: host and process id."""
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass(frozen=True)
class WorkerOptions:
    """How a worker claims and how often it looks for work."""

    lease: timedelta = LEASE
    #: Seconds to wait when there was nothing to do.
    poll: float = 1.0
    intervals: Intervals = field(default_factory=Intervals)
    name: str = field(default_factory=worker_name)


def add_schedules(options: WorkerOptions) -> None:
    """Make sure every periodic job exists; commits."""
    for name, every in options.intervals.schedules().items():
        if schedule(name, name, every):
            log.info("worker: scheduled %s every %s", name, every)


def work(app: Flask, options: WorkerOptions, stopping: threading.Event) -> None:
    """Run until ``stopping`` is set: the outbox, then one job at a time."""
    with app.app_context():
        add_schedules(options)
    log.info("worker %s: started", options.name)
    while not stopping.is_set():
        try:
            busy = drain_outbox(app) | run_next(app, options, stopping)
        except Exception:  # the database or the gateway is away: try again after a pause
            log.exception("worker %s: the pass failed", options.name)
            busy = False
        if not busy:
            stopping.wait(options.poll)
    log.info("worker %s: stopped", options.name)


def run_due(app: Flask, options: WorkerOptions) -> int:
    """Everything due now, once: the outbox, then jobs until none is due; returns jobs run."""
    with app.app_context():
        add_schedules(options)
    drain_outbox(app)
    ran = 0
    while run_next(app, options, threading.Event()):
        ran += 1
    return ran


def drain_outbox(app: Flask) -> bool:
    """Send the outbox's due items; True if there were any."""
    with app.app_context():
        report = drain(current_onboarding_client())
    busy = report.sent + report.rescheduled + report.failed + report.superseded > 0
    if busy:
        log.info(report.summary())
    return busy


def run_next(app: Flask, options: WorkerOptions, stopping: threading.Event) -> bool:
    """Claim the oldest due job and run it to its end; False when none was due."""
    with app.app_context():
        job = claim(options.name, options.lease)
        if job is None:
            return False
        handler = HANDLERS.get(job.kind)
        if handler is None:
            end(job, options.name, JobEnd.FAILED, f"No handler for jobs of kind {job.kind}")
        elif job.attempts > MAX_ATTEMPTS:
            handler.give_up(job.payload)
            end(job, options.name, JobEnd.FAILED,
                f"Given up: its workers stopped {MAX_ATTEMPTS} times before it ended")
        else:
            run = JobRun(job.id, dict(job.payload), options.name, options.lease, stopping,
                         job.attempts)
            with heartbeat(app, run):
                how, error = _run(handler, run)
            log.info("worker %s: job %d (%s) %s", options.name, job.id, job.kind, how.value)
            end(job, options.name, how, error)
        return True


def _run(handler: Handler, run: JobRun) -> tuple[JobEnd, str]:
    try:
        return handler.run(run), ""
    except Exception as exc:  # the job failed; the worker goes on with the next one
        log.exception("worker %s: job %d failed", run.worker, run.job_id)
        db.session.rollback()
        return JobEnd.FAILED, f"Unexpected error: {type(exc).__name__}"


@contextmanager
def heartbeat(app: Flask, run: JobRun) -> Iterator[None]:
    """Renew the job's lease every third of it while the block runs (in its own session)."""
    finished = threading.Event()

    def beat() -> None:
        while not finished.wait(run.lease.total_seconds() / 3):
            with app.app_context():
                held = renew(run.job_id, run.worker, run.lease)
                db.session.commit()
            if not held:
                return

    thread = threading.Thread(target=beat, name=f"job-{run.job_id}-lease", daemon=True)
    thread.start()
    try:
        yield
    finally:
        finished.set()
        thread.join()
