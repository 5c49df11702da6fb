"""A bulk import cut into chunks, each a job of its own (on SQLite and PostgreSQL, one worker
here; ``test_chunked_import`` runs two worker processes): file order, the counts added up
across chunks, one end, and a cancel that stops every chunk."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from portal.core.config import SETTINGS_EXTENSION
from portal.core.db import MAX_ROW_ID, db
from portal.core.models.audit import AuditEvent
from portal.core.models.job import JobState
from portal.features.bulk.import_job import KIND, Chunk, chunks
from portal.features.bulk.service import cancel
from tests.bulk.support import creates
from tests.jobs.support import (
    ADMIN,
    queue_import,
    stop_after,
    stored_import,
    stored_jobs,
    stored_rows,
)
from tests.support.workers import run_worker

ROWS = 12
CHUNK = 5


@pytest.fixture
def chunked(app, settings):
    """The portal with chunks of ``CHUNK`` rows."""
    app.extensions[SETTINGS_EXTENSION] = settings.with_changes(bulk_chunk_rows=CHUNK)
    return app


def ends_audited(app, import_id: int) -> int:
    """How many times the import's end was audited."""
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(AuditEvent).where(
            AuditEvent.action == "bulk.import.end",
            AuditEvent.detail["import"].as_integer() == import_id)) or 0


def test_rows_are_cut_into_chunks_in_file_order():
    assert chunks(7, [2, 3, 4, 5, 6], 2) == [Chunk(7, 2, 3), Chunk(7, 4, 5), Chunk(7, 6, 6)]
    assert chunks(7, [2, 3], 5) == [Chunk(7, 2, 3)]
    assert Chunk.of(Chunk(7, 4, 5).payload()) == Chunk(7, 4, 5)
    # a job queued before chunks runs the whole import
    assert Chunk.of({"import": 7}) == Chunk(7, 0, MAX_ROW_ID)


def test_each_chunk_is_a_job_and_the_import_ends_once_with_every_count(portal_clock, chunked,
                                                                        sandbox):
    import_id = queue_import(chunked, ROWS)
    assert [Chunk.of(j.payload) for j in stored_jobs(chunked, KIND)] == [
        Chunk(import_id, 2, 6), Chunk(import_id, 7, 11), Chunk(import_id, 12, 13)]
    run_worker(chunked)
    done = stored_import(chunked, import_id)
    assert (done.state, done.done, done.total) == ("finished", ROWS, ROWS)
    assert (done.counts["created"], done.counts["awaiting_documents"]) == (ROWS, ROWS)
    assert [p["row"] for p in done.problems] == list(range(2, ROWS + 2))
    rows = stored_rows(chunked, import_id)
    assert [r.outcome["externalOnboardingId"] for r in rows] == [
        f"jobs-{n:03d}" for n in range(1, ROWS + 1)]
    assert [j.state for j in stored_jobs(chunked, KIND)] == [JobState.DONE] * 3
    assert ends_audited(chunked, import_id) == 1
    assert creates(sandbox) == ROWS


def test_a_cancel_stops_every_chunk(portal_clock, chunked, sandbox, monkeypatch):
    import_id = queue_import(chunked, ROWS)
    stop_after(monkeypatch, 2, lambda: cancel(import_id, ADMIN))
    run_worker(chunked)
    done = stored_import(chunked, import_id)
    assert done.state == "cancelled"
    assert 2 <= done.done <= CHUNK  # the first chunk's rows in hand; no other chunk sent any
    assert [r.state for r in stored_rows(chunked, import_id)] == (
        ["awaiting_documents"] * done.done + ["pending"] * (ROWS - done.done))
    assert creates(sandbox) == done.done
    assert [j.state for j in stored_jobs(chunked, KIND)] == [JobState.DONE] * 3
    assert ends_audited(chunked, import_id) == 0  # the cancel is the end, audited as such
