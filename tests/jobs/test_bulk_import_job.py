"""A bulk import as a worker runs it: row by row, cancelled, released, taken over, crashed."""

from __future__ import annotations

import threading

from portal.bulk import jobs
from portal.bulk.jobs import KIND
from portal.jobs.queue import LEASE, claim
from portal.models.job import JobState
from portal.worker.loop import WorkerOptions, run_next
from tests.bulk.conftest import creates
from tests.jobs.support import SCHEDULES, queue_import, stored_import, stored_jobs, stored_rows
from tests.support.workers import run_worker

ROWS = 6


def stop_after(monkeypatch, rows: int, then) -> None:
    """Call ``then()`` once the worker has stored ``rows`` rows' outcomes."""
    record_row = jobs._record_row
    stored: list[int] = []

    def record_and_maybe_stop(*args) -> None:
        record_row(*args)
        stored.append(1)
        if len(stored) == rows:
            then()

    monkeypatch.setattr("portal.bulk.jobs._record_row", record_and_maybe_stop)


def test_rows_are_sent_in_file_order_each_outcome_stored(portal_clock, app, sandbox):
    import_id = queue_import(app, ROWS)
    assert [r.state for r in stored_rows(app, import_id)] == ["pending"] * ROWS
    assert creates(sandbox) == 0, "the upload sends nothing"
    run_worker(app)
    rows = stored_rows(app, import_id)
    assert [r.state for r in rows] == ["awaiting_documents"] * ROWS
    assert [r.outcome["externalOnboardingId"] for r in rows] == [
        f"jobs-{n:03d}" for n in range(1, ROWS + 1)]
    assert {r.finished_at for r in rows} == {portal_clock.now()}
    assert stored_import(app, import_id).state == "finished"
    assert [j.state for j in stored_jobs(app, KIND)] == [JobState.DONE]


def test_a_cancelled_import_stops_after_the_row_in_hand(portal_clock, app, sandbox,
                                                        monkeypatch):
    import_id = queue_import(app, ROWS)
    stop_after(monkeypatch, 2, lambda: jobs.cancel(import_id))
    run_worker(app)
    done = stored_import(app, import_id)
    assert (done.state, done.done) == ("cancelled", 2)
    assert [r.state for r in stored_rows(app, import_id)] == (
        ["awaiting_documents"] * 2 + ["pending"] * (ROWS - 2))
    assert creates(sandbox) == 2
    assert [j.state for j in stored_jobs(app, KIND)] == [JobState.DONE]
    with app.app_context():
        assert not jobs.cancel(import_id), "over already"


def test_an_import_cancelled_before_a_worker_came_sends_nothing(portal_clock, app, sandbox):
    import_id = queue_import(app, ROWS)
    with app.app_context():
        assert jobs.cancel(import_id)
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
    assert stored_import(app, import_id).done == 2
    monkeypatch.undo()
    run_worker(app)
    done = stored_import(app, import_id)
    assert (done.state, done.done, done.counts["created"]) == ("finished", ROWS, ROWS)
    assert creates(sandbox) == ROWS


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
                                                        monkeypatch):
    import_id = queue_import(app, ROWS)

    def broken(*_args) -> None:
        raise RuntimeError("the disk is full")

    stop_after(monkeypatch, 1, lambda: monkeypatch.setattr("portal.bulk.jobs._record_row",
                                                           broken))
    run_worker(app)
    assert stored_import(app, import_id).state == "crashed"
    [job] = stored_jobs(app, KIND)
    assert (job.state, job.last_error) == (JobState.FAILED, "Unexpected error: RuntimeError")
