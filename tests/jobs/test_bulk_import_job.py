"""A bulk import as a worker runs it: several rows at once, cancelled, released, taken over,
crashed."""

from __future__ import annotations

import threading
from contextlib import contextmanager

import pytest

from portal.app.worker.loop import WorkerOptions, run_next
from portal.core.config import SETTINGS_EXTENSION
from portal.core.models.job import JobState
from portal.core.row_claims import LEASE
from portal.domain.jobs.queue import claim
from portal.features.bulk.import_job import KIND
from portal.features.bulk.service import cancel
from tests.bulk.support import creates
from tests.jobs.support import (
    ADMIN,
    SCHEDULES,
    queue_import,
    stop_after,
    stored_import,
    stored_jobs,
    stored_rows,
)
from tests.support.workers import run_worker

ROWS = 12
#: A wait that only a broken test reaches: the barrier below trips as soon as the rows meet.
NEVER = 60


@contextmanager
def creates_meeting(monkeypatch, sandbox, parties: int):
    """Hold each create at the sandbox until ``parties`` creates are there at once; yields the
    most that were there together."""
    barrier = threading.Barrier(parties, timeout=NEVER)
    create = sandbox.backend.create_onboarding
    inside, most, lock = [0], [0], threading.Lock()

    def meet_then_create(*args):
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        try:
            barrier.wait()  # a row sent alone would break the barrier: its create fails
        finally:
            with lock:
                inside[0] -= 1
        return create(*args)

    monkeypatch.setattr(sandbox.backend, "create_onboarding", meet_then_create)
    yield most
    assert not barrier.broken


def test_each_rows_outcome_is_stored(portal_clock, app, sandbox):
    import_id = queue_import(app, ROWS)
    assert [r.state for r in stored_rows(app, import_id)] == ["pending"] * ROWS
    assert creates(sandbox) == 0, "the upload sends nothing"
    run_worker(app)
    rows = stored_rows(app, import_id)
    assert [r.state for r in rows] == ["awaiting_documents"] * ROWS
    assert [r.outcome["externalOnboardingId"] for r in rows] == [
        f"jobs-{n:03d}" for n in range(1, ROWS + 1)]
    assert {r.finished_at for r in rows} == {portal_clock.now()}
    done = stored_import(app, import_id)
    assert (done.state, done.done, done.counts["created"]) == ("finished", ROWS, ROWS)
    assert [j.state for j in stored_jobs(app, KIND)] == [JobState.DONE]


@pytest.mark.parametrize("in_flight", [4, 3])  # the default, and BULK_CONCURRENCY set
def test_rows_are_sent_as_many_at_once_as_set_never_more(portal_clock, app, settings, sandbox,
                                                          monkeypatch, in_flight):
    app.extensions[SETTINGS_EXTENSION] = settings.with_changes(bulk_concurrency=in_flight)
    import_id = queue_import(app, 2 * in_flight)
    with creates_meeting(monkeypatch, sandbox, in_flight) as most:
        run_worker(app)
    assert most[0] == in_flight
    done = stored_import(app, import_id)
    assert (done.state, done.counts["created"]) == ("finished", 2 * in_flight)


def test_a_cancelled_import_stops_after_the_rows_in_hand(portal_clock, app, sandbox,
                                                         monkeypatch):
    import_id = queue_import(app, ROWS)
    stop_after(monkeypatch, 2, lambda: cancel(import_id, ADMIN))
    run_worker(app)
    done = stored_import(app, import_id)
    assert done.state == "cancelled"
    assert 2 <= done.done < ROWS
    assert [r.state for r in stored_rows(app, import_id)] == (
        ["awaiting_documents"] * done.done + ["pending"] * (ROWS - done.done))
    assert creates(sandbox) == done.done
    assert [j.state for j in stored_jobs(app, KIND)] == [JobState.DONE]
    with app.app_context():
        assert not cancel(import_id, ADMIN), "over already"


def test_an_import_cancelled_before_a_worker_came_sends_nothing(portal_clock, app, sandbox):
    import_id = queue_import(app, ROWS)
    with app.app_context():
        assert cancel(import_id, ADMIN)
    run_worker(app)
    assert stored_import(app, import_id).done == 0
    assert creates(sandbox) == 0


def test_a_stopping_worker_hands_the_import_back_and_another_goes_on(portal_clock, app,
                                                                     sandbox, monkeypatch):
    import_id = queue_import(app, ROWS)
    stopping = threading.Event()
    stop_after(monkeypatch, 2, stopping.set)
    assert run_next(app, WorkerOptions(name="stopping"), stopping)
    [job] = stored_jobs(app, KIND)
    assert (job.state, job.worker) == (JobState.PENDING, "")
    assert 2 <= stored_import(app, import_id).done < ROWS
    monkeypatch.undo()
    run_worker(app)
    done = stored_import(app, import_id)
    assert (done.state, done.done, done.counts["created"]) == ("finished", ROWS, ROWS)
    assert creates(sandbox) == ROWS


def test_a_worker_whose_lease_was_taken_over_stores_nothing_more(portal_clock, app, sandbox,
                                                                monkeypatch):
    import_id = queue_import(app, ROWS)

    def take_over() -> None:  # the first worker looked dead long enough: another claims
        portal_clock.advance(LEASE.total_seconds())
        assert claim("other") is not None

    stop_after(monkeypatch, 2, take_over)
    assert run_next(app, WorkerOptions(name="first"), threading.Event())
    [job] = stored_jobs(app, KIND)
    assert (job.state, job.worker) == (JobState.RUNNING, "other"), "left to the new holder"
    done = stored_import(app, import_id)
    assert done.state == "running"
    assert 2 <= done.done < ROWS  # the rows in flight at the takeover ended, unrecorded
    assert sum(r.state != "pending" for r in stored_rows(app, import_id)) == done.done


def test_an_import_whose_worker_died_is_finished_by_another(portal_clock, app, sandbox):
    import_id = queue_import(app, ROWS)
    with app.app_context():
        assert claim("died") is not None
    assert run_worker(app) == SCHEDULES, "the import is still the dead worker's: only the schedules"
    portal_clock.advance(LEASE.total_seconds())
    run_worker(app)
    done = stored_import(app, import_id)
    assert (done.state, done.done, done.counts["created"]) == ("finished", ROWS, ROWS)
    [job] = stored_jobs(app, KIND)
    assert (job.state, job.attempts) == (JobState.DONE, 2)


def test_an_unexpected_error_ends_the_import_as_crashed(portal_clock, app, sandbox,
                                                        monkeypatch, caplog):
    import_id = queue_import(app, ROWS)

    def broken(*_args) -> None:
        raise RuntimeError("the disk is full")

    target = "portal.features.bulk.import_job._record_rows"
    stop_after(monkeypatch, 1, lambda: monkeypatch.setattr(target, broken))
    run_worker(app)
    assert stored_import(app, import_id).state == "crashed"
    [job] = stored_jobs(app, KIND)
    assert (job.state, job.last_error) == (JobState.FAILED, "Unexpected error: RuntimeError")
    # the rows in flight ended on their own (the failed recording let go of the write lock),
    # not on "database is locked" after SQLite's busy timeout
    assert "failed unexpectedly" not in caplog.text
