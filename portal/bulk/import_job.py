"""The job that runs a bulk import, row by row, in a worker (the page checks the file and
queues the job: ``portal.bulk.service``).

The upload's valid rows and the job that runs them are stored in one transaction. A worker
(``flask --app app worker``) starts the rows in file order, BULK_CONCURRENCY in flight at once
(``portal.bulk.runner``), and writes the outcomes of the rows that ended with the import's
counts in one transaction, only while its lease on the job holds: a worker that took the job
over after a crash goes on from the first rows without an outcome (a merchant is never created
twice: the row resumes it). Documents come in a ZIP beside the CSV: checked with the file,
copied into the import's own part of the document store (``portal.bulk.staging``) in the
upload's request, sent by
the rows, and deleted when the import ends; without a ZIP they are left for the wizard. Every
audit entry is the importing admin's.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from flask import current_app
from sqlalchemy import select, update

from portal.audit.service import Actor, record
from portal.bulk import staging
from portal.bulk.onboard import RowOutcome, RowState
from portal.bulk.parsing import BulkRow, DocumentCell
from portal.bulk.runner import run_pool
from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.bulk import ROW_PENDING, BulkImport, BulkImportRow, ImportState
from portal.jobs.queue import JobEnd, JobRun
from portal.storage.current import current_store

log = logging.getLogger("portal.bulk")
#: The job kind that runs an import.
KIND = "bulk_import"
#: Rows read from the database at a time (one query per batch, not per row).
BATCH = 50


def importer(job: BulkImport) -> Actor:
    """Who started the import: the actor of everything it does."""
    return Actor(job.started_by, job.started_by_id)


def run_import(run: JobRun) -> JobEnd:
    """The worker's part: send the rows without an outcome, in file order, several at once."""
    import_id = int(run.payload["import"])
    progress = _Progress(import_id, run)
    settings = current_settings()
    try:
        run_pool(current_app._get_current_object(),  # type: ignore[attr-defined]
                 _pending_rows(import_id, progress), progress.record,
                 concurrency=settings.bulk_concurrency, actor=progress.actor,
                 files=staging.files_of(current_store(), import_id))
    except Exception:  # the import must be left in a final state
        log.exception("bulk import %d stopped", import_id)
        db.session.rollback()
        _finish(import_id, ImportState.CRASHED)
        raise
    if progress.lost:
        return JobEnd.LOST
    if run.stopping.is_set() and _unfinished(import_id):
        return JobEnd.RELEASED  # another worker goes on with the rows left
    _finish(import_id, ImportState.FINISHED)
    return JobEnd.DONE


def give_up(payload: dict[str, Any]) -> None:
    """The import's workers kept dying on it: it ends as crashed (uploading it again resumes)."""
    _finish(int(payload["import"]), ImportState.CRASHED)


class _Progress:
    """What the job knows of its import while it runs: the rows in flight, the counts and the
    problems so far (this worker alone writes them while its lease holds), and whether it lost
    the job."""

    def __init__(self, import_id: int, run: JobRun) -> None:
        self.import_id = import_id
        self.run = run
        job = db.session.get(BulkImport, import_id, populate_existing=True)
        assert job is not None
        self.counts = dict(job.counts)
        self.problems = list(job.problems)
        self.actor = importer(job)
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

    def add(self, outcome: RowOutcome) -> None:
        """Count one row's outcome (a row not completed is also a problem)."""
        counts = self.counts
        counts["created"] = counts.get("created", 0) + outcome.created
        counts["resumed"] = counts.get("resumed", 0) + outcome.resumed
        counts[outcome.state.value] = counts.get(outcome.state.value, 0) + 1
        if outcome.state is not RowState.COMPLETED:
            self.problems.append(outcome.as_json())
            self.problems.sort(key=lambda p: p["row"])


def _pending_rows(import_id: int, progress: _Progress) -> Iterator[BulkRow]:
    """The rows still to send in file order, read ``BATCH`` at a time while the import runs."""
    after = 0
    while progress.may_start():
        batch = db.session.execute(
            select(BulkImportRow.id, BulkImportRow.number, BulkImportRow.forms,
                   BulkImportRow.documents).join(BulkImport)
            .where(BulkImportRow.import_id == import_id, BulkImportRow.state == ROW_PENDING,
                   BulkImportRow.number > after, BulkImport.state == ImportState.RUNNING)
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


def _unfinished(import_id: int) -> bool:
    """Whether the running import has rows still to send."""
    return db.session.scalar(
        select(BulkImportRow.id).join(BulkImport)
        .where(BulkImportRow.import_id == import_id, BulkImportRow.state == ROW_PENDING,
               BulkImport.state == ImportState.RUNNING).limit(1)) is not None


def _record_rows(progress: _Progress, ended: list[tuple[int, RowOutcome]]) -> str:
    """The rows' outcomes and the import's counts, in the caller's transaction (with the
    lease's renewal); commits. The import's state (cancelled: start no more rows)."""
    now = clock.utcnow()
    db.session.execute(update(BulkImportRow), [
        {"id": row_id, "state": outcome.state.value, "outcome": outcome.as_json(),
         "finished_at": now} for row_id, outcome in ended])
    for _row_id, outcome in ended:
        progress.add(outcome)
    db.session.execute(
        update(BulkImport).where(BulkImport.id == progress.import_id)
        .values(done=BulkImport.done + len(ended), counts=dict(progress.counts),
                problems=list(progress.problems)),
        execution_options={"synchronize_session": False})
    state = db.session.scalar(select(BulkImport.state).where(BulkImport.id == progress.import_id))
    db.session.commit()
    return state or ""


def _finish(import_id: int, state: ImportState) -> None:
    """End a running import in ``state`` (a cancelled one keeps its state); commits. Its
    documents' copies go, and any copies an upload that died left behind."""
    job = db.session.get(BulkImport, import_id, populate_existing=True)
    assert job is not None
    if job.state == ImportState.RUNNING:
        job.state = state
        job.finished_at = clock.utcnow()
        record("bulk.import.end", outcome="ok" if state is ImportState.FINISHED else "error",
               detail={"import": import_id, **job.counts}, actor=importer(job))
    db.session.commit()
    store = current_store()
    staging.discard(store, import_id)
    staging.sweep(store, set(db.session.scalars(
        select(BulkImport.id).where(BulkImport.state == ImportState.RUNNING))), clock.utcnow())
    db.session.commit()  # end the read
