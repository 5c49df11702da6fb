"""Claims, leases, releases and schedules of the job queue, on SQLite and PostgreSQL, with the
portal's clock moved instead of waiting."""

from __future__ import annotations

from datetime import timedelta

from portal.app.worker.tasks import PAYMENT_POLL, REMINDERS, RETENTION, SYNC
from portal.core.db import db
from portal.core.models.job import Job, JobState
from portal.core.row_claims import LEASE
from portal.domain.jobs.queue import MAX_ATTEMPTS, JobEnd, claim, end, enqueue, renew, schedule
from tests.jobs.support import SCHEDULES, stored_jobs
from tests.support.workers import run_worker

MINUTE = 60


def add_job(app, kind: str = "nothing") -> int:
    """A due job of ``kind``, committed."""
    with app.app_context():
        job = enqueue(kind, {})
        db.session.commit()
        return job.id


def stored(app, job_id: int) -> Job:
    with app.app_context():
        job = db.session.get(Job, job_id)
        assert job is not None
        db.session.expunge(job)
        return job


def test_a_job_is_claimed_by_one_worker_alone(portal_clock, app):
    job_id = add_job(app)
    with app.app_context():
        first = claim("a")
        assert first is not None and first.id == job_id
        assert claim("b") is None
    job = stored(app, job_id)
    assert (job.state, job.worker, job.attempts) == (JobState.RUNNING, "a", 1)
    assert job.lease_until == portal_clock.now() + LEASE


def test_a_renewed_lease_holds_and_a_lapsed_one_is_taken_over(portal_clock, app):
    job_id = add_job(app)
    with app.app_context():
        held = claim("a")
        assert held is not None
        portal_clock.advance(LEASE.total_seconds() - MINUTE)
        assert renew(job_id, "a")
        db.session.commit()
        portal_clock.advance(LEASE.total_seconds() - MINUTE)
        assert claim("b") is None, "renewed: still the first worker's"
        portal_clock.advance(2 * MINUTE)  # the first worker died: no renewal came
        taken = claim("b")
        assert taken is not None and taken.id == job_id
        assert not renew(job_id, "a")
        end(held, "a", JobEnd.DONE)  # a late end from the old holder changes nothing
    job = stored(app, job_id)
    assert (job.state, job.worker, job.attempts) == (JobState.RUNNING, "b", 2)


def test_a_released_job_goes_to_the_next_worker_at_once(portal_clock, app):
    job_id = add_job(app)
    with app.app_context():
        held = claim("a")
        assert held is not None
        end(held, "a", JobEnd.RELEASED)
        assert stored(app, job_id).state == JobState.PENDING
        taken = claim("b")
        assert taken is not None and taken.id == job_id
    assert stored(app, job_id).attempts == 1, "a release is not counted as a failed attempt"


def test_a_job_of_an_unknown_kind_fails_with_a_reason(portal_clock, app):
    job_id = add_job(app, "no-such-kind")
    assert run_worker(app) == 1 + SCHEDULES  # it, and each schedule's first run
    job = stored(app, job_id)
    assert (job.state, job.last_error) == (JobState.FAILED,
                                           "No handler for jobs of kind no-such-kind")


def test_periodic_jobs_exist_once_and_come_back_after_their_interval(portal_clock, app):
    assert run_worker(app) == SCHEDULES
    with app.app_context():
        assert not schedule(SYNC, SYNC, timedelta(seconds=5)), "already there"
    jobs = {job.schedule: job for kind in (SYNC, REMINDERS, RETENTION, PAYMENT_POLL)
            for job in stored_jobs(app, kind)}
    assert set(jobs) == {SYNC, REMINDERS, RETENTION, PAYMENT_POLL}
    assert {job.state for job in jobs.values()} == {JobState.PENDING}
    assert jobs[SYNC].run_at == portal_clock.now() + timedelta(seconds=60)
    assert jobs[PAYMENT_POLL].run_at == portal_clock.now() + timedelta(seconds=60)
    assert jobs[REMINDERS].run_at == portal_clock.now() + timedelta(hours=1)
    assert jobs[RETENTION].run_at == portal_clock.now() + timedelta(days=1)
    assert run_worker(app) == 0
    portal_clock.advance(60)
    # the sync, the payment poll, the notices (every 30 s) and the webhooks out (every 5 s)
    assert run_worker(app) == 4
    assert len(stored_jobs(app, SYNC)) == 1


def test_a_job_whose_workers_keep_dying_is_given_up(portal_clock, app):
    job_id = add_job(app, SYNC)
    with app.app_context():
        for _ in range(MAX_ATTEMPTS):
            assert claim("dies") is not None
            portal_clock.advance(LEASE.total_seconds())
    run_worker(app)
    job = stored(app, job_id)
    assert job.state == JobState.FAILED
    assert job.last_error == f"Given up: its workers stopped {MAX_ATTEMPTS} times before it ended"
