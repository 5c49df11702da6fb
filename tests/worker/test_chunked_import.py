"""One import over two ``flask worker`` processes on one PostgreSQL: its rows are cut into chunks,
both workers send a chunk each at once, and when one is killed with SIGKILL in the middle of its
chunk, with rows in flight, the other takes that chunk over when its lease runs out: every row
ends once, no merchant is created twice, the counts add up across the workers."""

from __future__ import annotations

import signal
from contextlib import ExitStack

import pytest
from sqlalchemy import select

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.job import JobState
from portal.core.models.merchant import Merchant
from portal.features.bulk.import_job import KIND, Chunk
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.jobs.support import (
    queue_import,
    stored_import,
    stored_jobs,
    taken_over_and_finished,
    wait_for,
)
from tests.support.workers import worker_process
from tests.worker.support import CONCURRENCY, sent

pytestmark = pytest.mark.postgres

ROWS = 40
CHUNK = 10
#: Products sends that pass before the next ones are held: fewer than a chunk's rows, so
#: each worker is in the middle of its chunk when its rows in flight are held.
PASSED = 4
#: The rows in flight of both workers.
HELD = 2 * CONCURRENCY


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Chunks of ``CHUNK`` rows: the import is 4 chunks (the upload and the workers agree)."""
    return settings.with_changes(bulk_chunk_rows=CHUNK)


def hold_both_workers(sandbox) -> None:
    """Products sends pass for ``PASSED`` rows, then those of the next ``HELD`` rows are held
    20 s: only two workers' rows in flight together can be that many; creates counted."""
    sandbox.state.faults.set(
        Fault(FaultKind.LATENCY, operation="configure_products", times=PASSED),
        Fault(FaultKind.LATENCY, operation="configure_products", times=HELD, seconds=20),
        Fault(FaultKind.LATENCY, operation="configure_products"),
        Fault(FaultKind.LATENCY, operation="create_onboarding"))


def running_chunks(app) -> dict[str, Chunk]:
    """The chunks being sent, by the worker holding each."""
    return {job.worker: Chunk.of(job.payload) for job in stored_jobs(app, KIND)
            if job.state == JobState.RUNNING}


def test_two_workers_send_two_chunks_at_once_and_one_takes_over_the_other(
        app, settings, sandbox, tmp_path):
    import_id = queue_import(app, ROWS)
    assert [Chunk.of(job.payload) for job in stored_jobs(app, KIND)] == [
        Chunk(import_id, first, first + CHUNK - 1) for first in range(2, ROWS + 2, CHUNK)]
    hold_both_workers(sandbox)
    with ExitStack() as stack:
        first = stack.enter_context(worker_process(settings, tmp_path / "first.log"))
        second = stack.enter_context(worker_process(settings, tmp_path / "second.log"))
        wait_for(lambda: sent(sandbox, "PUT") == PASSED + HELD,
                 "both workers' rows in flight held at the gateway")
        busy = running_chunks(app)
        assert len(busy) == 2, busy  # one chunk each, at once
        assert {name.rsplit(":", 1)[1] for name in busy} == {str(first.pid), str(second.pid)}
        killed = next(chunk for name, chunk in busy.items() if name.endswith(f":{first.pid}"))
        first.send_signal(signal.SIGKILL)  # in the middle of its chunk, 4 rows in flight
        assert first.wait(timeout=30) == -signal.SIGKILL

        wait_for(lambda: stored_import(app, import_id).state != "running", "the import's end",
                 seconds=240)
        assert second.poll() is None  # the survivor sent every other chunk and goes on

    # the killed worker's rows in flight were resumed (their merchants existed) by the other
    done, rows = taken_over_and_finished(app, import_id, ROWS, CONCURRENCY)
    resumed = {r.number for r in rows if r.outcome["resumed"]}
    assert len(resumed) == CONCURRENCY
    assert all(killed.first <= number <= killed.last for number in resumed), (killed, resumed)
    assert len(done.problems) == ROWS  # every row's outcome counted once, from both workers
    assert sent(sandbox, "POST") == ROWS  # one create per merchant
    with app.app_context():
        merchants = list(db.session.scalars(select(Merchant)))
    assert sorted(m.external_onboarding_id for m in merchants) == [
        f"jobs-{n:03d}" for n in range(1, ROWS + 1)]
    jobs = stored_jobs(app, KIND)
    assert {job.state for job in jobs} == {"done"}
    assert sorted(job.attempts for job in jobs) == [1, 1, 1, 2]  # the killed chunk, taken over
