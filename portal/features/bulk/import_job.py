"""The job that runs a bulk import, row by row, in a worker (the page checks the file and
queues the job: ``portal.features.bulk.service``).

The upload's valid rows and the jobs that run them are stored in one transaction: one job per
chunk of ``BULK_CHUNK_ROWS`` rows in file order (``chunks``), so several workers (PostgreSQL)
send different chunks of one import at once, each with its own claim and lease. A worker
(``flask --app app worker``) starts its chunk's rows in file order, BULK_CONCURRENCY in flight
at once (``portal.features.bulk.runner``), and adds the outcomes of the rows that ended to the
import's counts in one transaction, the import's row locked, only while its lease on the chunk
holds: a worker that took a chunk over after a crash goes on from its first rows without an outcome
(a merchant is never created twice: the row resumes it). The import ends when a chunk ends and
no row of the import is left. Documents come in a ZIP beside the CSV: checked with the file,
copied into the import's own part of the document store (``portal.features.bulk.staging``) in the
upload's request, sent by the rows (any worker on any host reads them there), and deleted when
the import's last chunk ends; without a ZIP they are left for the wizard. Every audit entry is
the importing admin's.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any, NamedTuple

from flask import current_app
from sqlalchemy import select, update

from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import MAX_ROW_ID, db
from portal.core.models.bulk import ROW_PENDING, BulkImport, BulkImportRow, ImportState
from portal.core.models.job import Job, JobState
from portal.core.storage.current import current_store
from portal.domain.audit.service import Actor, record
from portal.domain.jobs.queue import JobEnd, JobRun
from portal.features.bulk import staging
from portal.features.bulk.onboard import RowOutcome, RowState
from portal.features.bulk.parsing import BulkRow, DocumentCell
from portal.features.bulk.runner import run_pool

log = logging.getLogger("portal.bulk")
#: The job kind that runs an import.
KIND = "bulk_import"
#: Rows read from the database at a time (one query per batch, not per row).
BATCH = 50


def importer(job: BulkImport) -> Actor:
    """Who started the import: the actor of everything it does."""
    return Actor(job.started_by, job.started_by_id)


class Chunk(NamedTuple):
    """The rows of one import a job sends: spreadsheet row numbers ``first`` to ``last``."""

    import_id: int
    first: int
    last: int

    @classmethod
    def of(cls, payload: dict[str, Any]) -> Chunk:
        """The chunk a job's payload names (a job queued before chunks: the whole import)."""
        return cls(int(payload["import"]), int(payload.get("first", 0)),
                   int(payload.get("last", MAX_ROW_ID)))

    def payload(self) -> dict[str, Any]:
        """The job's payload."""
        return {"import": self.import_id, "first": self.first, "last": self.last}


def chunks(import_id: int, numbers: list[int], size: int) -> list[Chunk]:
    """The rows ``numbers`` (in file order) cut into chunks of ``size`` rows."""
    return [Chunk(import_id, part[0], part[-1])
            for part in (numbers[at:at + size] for at in range(0, len(numbers), size))]


def run_import(run: JobRun) -> JobEnd:
    """The worker's part: send the chunk's rows without an outcome, in file order, several at
    once; end the import when none of its rows is left."""
    chunk = Chunk.of(run.payload)
    progress = _Progress(chunk, run)
    settings = current_settings()
    try:
        run_pool(current_app._get_current_object(),  # type: ignore[attr-defined]
                 _pending_rows(chunk, progress), progress.record,
                 concurrency=settings.bulk_concurrency, actor=progress.actor,
                 files=staging.files_of(current_store(), chunk.import_id))
    except Exception:  # the import must be left in a final state
        log.exception("bulk import %d stopped", chunk.import_id)
        db.session.rollback()
        _finish(chunk.import_id, ImportState.CRASHED, run.job_id)
        raise
    if progress.lost:
        return JobEnd.LOST
    if run.stopping.is_set() and _unfinished(chunk):
        return JobEnd.RELEASED  # another worker goes on with the rows left
    if not _unfinished(Chunk.of({"import": chunk.import_id})):  # nor other chunks' rows
        _finish(chunk.import_id, ImportState.FINISHED, run.job_id)
    return JobEnd.DONE


def give_up(payload: dict[str, Any]) -> None:
    """The import's workers kept dying on a chunk: it ends as crashed (uploading it again
    resumes)."""
    _finish(Chunk.of(payload).import_id, ImportState.CRASHED)


class _Progress:
    """What the job knows of its chunk while it runs: the rows in flight, the importer, the
    import's counts and problems (other chunks add theirs), and whether it lost the job."""

    def __init__(self, chunk: Chunk, run: JobRun) -> None:
        self.import_id = chunk.import_id
        self.run = run
        job = db.session.get(BulkImport, chunk.import_id, populate_existing=True)
        assert job is not None
        self.actor = importer(job)
        #: The import's counts and problems as this worker last stored them, good while its
        #: rows done are still ``done`` (no other chunk stored any since).
        self.done, self.counts, self.problems = job.done, dict(job.counts), list(job.problems)
        db.session.commit()  # end the read
        #: The ids of the rows started and not yet recorded, by spreadsheet row number.
        self.started: dict[int, int] = {}
        self.lost = False

    def may_start(self) -> bool:
        """False once the worker is stopping (the job is then handed back) or lost the job."""
        return not (self.lost or self.run.stopping.is_set())

    def record(self, outcomes: list[RowOutcome]) -> bool:
        """Store the rows' outcomes and the counts in one commit, if the lease is still ours;
        whether to start more rows."""
        ended = [(self.started.pop(o.row), o) for o in outcomes]
        if self.lost or not self.run.still_mine():
            db.session.rollback()
            self.lost = True
            return False
        try:
            state = _record_rows(self, ended)
        except Exception:
            # the lease's renewal holds the write lock: release it now, or the rows still in
            # flight (their threads are waited for next) wait out SQLite's busy timeout
            db.session.rollback()
            raise
        return state == ImportState.RUNNING and self.may_start()


def add_outcomes(counts: dict[str, int], problems: list[dict[str, Any]],
                 outcomes: list[RowOutcome]) -> None:
    """Count the rows' outcomes into ``counts``, and those not completed into ``problems``
    (kept in row order)."""
    for outcome in outcomes:
        counts["created"] = counts.get("created", 0) + outcome.created
        counts["resumed"] = counts.get("resumed", 0) + outcome.resumed
        counts[outcome.state.value] = counts.get(outcome.state.value, 0) + 1
        if outcome.state is not RowState.COMPLETED:
            problems.append(outcome.as_json())
    problems.sort(key=lambda p: p["row"])


def _pending_rows(chunk: Chunk, progress: _Progress) -> Iterator[BulkRow]:
    """The chunk's rows still to send in file order, read ``BATCH`` at a time while the import
    runs."""
    after = chunk.first - 1
    while progress.may_start():
        batch = db.session.execute(
            select(BulkImportRow.id, BulkImportRow.number, BulkImportRow.forms,
                   BulkImportRow.documents).join(BulkImport)
            .where(*_pending_in(chunk), BulkImportRow.number > after,
                   BulkImport.state == ImportState.RUNNING)
            .order_by(BulkImportRow.number).limit(BATCH)).all()
        db.session.commit()  # end the read: no transaction is held while rows are in flight
        for row_id, number, forms, documents in batch:
            if not progress.may_start():
                return
            progress.started[number] = row_id
            yield BulkRow(number, forms, [DocumentCell.from_json(c) for c in documents or []])
        if len(batch) < BATCH:
            return
        after = batch[-1].number


def _pending_in(chunk: Chunk) -> tuple[Any, ...]:
    return (BulkImportRow.import_id == chunk.import_id, BulkImportRow.state == ROW_PENDING,
            BulkImportRow.number.between(chunk.first, chunk.last))


def _unfinished(chunk: Chunk) -> bool:
    """Whether the running import has rows of ``chunk`` still to send."""
    return db.session.scalar(
        select(BulkImportRow.id).join(BulkImport)
        .where(*_pending_in(chunk), BulkImport.state == ImportState.RUNNING).limit(1)) is not None


def _chunks_left(import_id: int, job_id: int | None) -> bool:
    """Whether a chunk of the import other than job ``job_id``'s is queued or being sent."""
    live = db.session.scalars(select(Job.payload).where(
        Job.kind == KIND, Job.id != (job_id or 0),
        Job.state.in_((JobState.PENDING, JobState.RUNNING))))
    found = any(Chunk.of(payload).import_id == import_id for payload in live)
    db.session.commit()  # end the read
    return found


def _record_rows(progress: _Progress, ended: list[tuple[int, RowOutcome]]) -> str:
    """The rows' outcomes, added to the import's counts (its row locked: other chunks add
    theirs), in the caller's transaction (with the lease's renewal); commits. The import's
    state (cancelled: start no more rows)."""
    now = clock.utcnow()
    db.session.execute(update(BulkImportRow), [
        {"id": row_id, "state": outcome.state.value, "outcome": outcome.as_json(),
         "finished_at": now} for row_id, outcome in ended])
    state, done = db.session.execute(
        select(BulkImport.state, BulkImport.done)
        .where(BulkImport.id == progress.import_id).with_for_update()).one()
    if done != progress.done:  # another chunk stored rows since: read what it added
        counts, problems = db.session.execute(
            select(BulkImport.counts, BulkImport.problems)
            .where(BulkImport.id == progress.import_id)).one()
        progress.counts, progress.problems = dict(counts), list(problems)
    add_outcomes(progress.counts, progress.problems, [outcome for _row_id, outcome in ended])
    progress.done = done + len(ended)
    db.session.execute(
        update(BulkImport).where(BulkImport.id == progress.import_id)
        .values(done=progress.done, counts=dict(progress.counts),
                problems=list(progress.problems)),
        execution_options={"synchronize_session": False})
    db.session.commit()
    return state or ""


def _finish(import_id: int, state: ImportState, job_id: int | None = None) -> None:
    """End a running import in ``state`` (a cancelled or ended one keeps its state: of two
    chunks ending together, one ends it); commits. Its documents' copies go once no chunk but
    job ``job_id`` may still send them (else the sweep deletes them a day later), and any
    copies an upload that died left behind."""
    now = clock.utcnow()
    ended = db.session.execute(
        update(BulkImport).where(BulkImport.id == import_id,
                                 BulkImport.state == ImportState.RUNNING)
        .values(state=state, finished_at=now),
        execution_options={"synchronize_session": False}).rowcount == 1
    if ended:
        job = db.session.get(BulkImport, import_id, populate_existing=True)
        assert job is not None
        record("bulk.import.end", outcome="ok" if state is ImportState.FINISHED else "error",
               detail={"import": import_id, **job.counts}, actor=importer(job))
    db.session.commit()
    store = current_store()
    if not _chunks_left(import_id, job_id):
        staging.discard(store, import_id)
    staging.sweep(store, set(db.session.scalars(
        select(BulkImport.id).where(BulkImport.state == ImportState.RUNNING))), clock.utcnow())
    db.session.commit()  # end the read
