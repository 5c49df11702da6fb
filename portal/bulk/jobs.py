"""Imports started from the admin page: checked in the request, run row by row by a worker.

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
from typing import Any, BinaryIO

from flask import current_app
from sqlalchemy import select, update

from portal import clock
from portal.audit import Actor, record
from portal.bulk import staging
from portal.bulk.archive import ZipDocuments
from portal.bulk.onboard import RowOutcome, RowState
from portal.bulk.parsing import BulkRow, DocumentCell
from portal.bulk.runner import run_pool
from portal.bulk.validation import check_file, skipped_documents
from portal.config import current_settings
from portal.db import db
from portal.jobs.queue import JobEnd, JobRun, enqueue
from portal.models.bulk import ROW_PENDING, BulkImport, BulkImportRow, ImportState
from portal.storage.current import current_store
from portal.typed_text import without_control_characters

log = logging.getLogger("portal.bulk")
#: The job kind that runs an import.
KIND = "bulk_import"
#: How many past imports the page lists.
RECENT = 10
#: Rows read from the database at a time (one query per batch, not per row).
BATCH = 50


def submit(content: bytes, filename: str, actor: Actor, *, skip_invalid: bool = False,
           documents: BinaryIO | None = None) -> BulkImport:
    """Check the file (and the ZIP of ``documents`` it names, when given: ArchiveError if it
    is no ZIP); unless it has problems (and they are not skipped), queue the import."""
    settings = current_settings()
    archive = ZipDocuments(documents, settings.upload_max_bytes) if documents else None
    checked = check_file(content, archive)
    rows = checked.valid_rows()
    send = bool(rows) and not checked.unreadable and (skip_invalid or not checked.errors)
    job = BulkImport(filename=without_control_characters(filename)[:255], started_by=actor.label,
                     started_by_id=actor.id,
                     state=ImportState.RUNNING if send else ImportState.INVALID,
                     rows=len(checked.rows), total=len(rows) if send else 0, done=0,
                     counts=_no_counts(), errors=[e.as_json() for e in checked.errors],
                     problems=[], skipped_documents=skipped_documents(rows)
                     if send and archive is None else 0)
    db.session.add(job)
    db.session.flush()
    if send:
        staged = _stage(archive, rows, job.id)
        db.session.add_all(BulkImportRow(import_id=job.id, number=row.number, forms=row.forms,
                                         documents=staged.get(row.number), state=ROW_PENDING)
                           for row in rows)
        enqueue(KIND, {"import": job.id})
    record("bulk.import.start" if send else "bulk.import.invalid", actor=actor,
           detail={"import": job.id, "file": job.filename, "rows": job.rows,
                   "invalid": checked.invalid_count, "documents": archive is not None})
    db.session.commit()
    return job


def _stage(archive: ZipDocuments | None, rows: list[BulkRow],
           import_id: int) -> dict[int, list[dict[str, Any]]]:
    """The rows' documents copied out of the ZIP (none without one); nothing is kept, in the
    store or the session, when a copy fails."""
    if archive is None:
        return {}
    try:
        return staging.stage_rows(archive, rows, current_store(), import_id)
    except BaseException:
        db.session.rollback()
        staging.discard(current_store(), import_id)
        raise


def importer(job: BulkImport) -> Actor:
    """Who started the import: the actor of everything it does."""
    return Actor(job.started_by, job.started_by_id)


def cancel(import_id: int, actor: Actor) -> bool:
    """Stop a running import after the rows being sent; False if it was over already."""
    result = db.session.execute(
        update(BulkImport).where(BulkImport.id == import_id,
                                 BulkImport.state == ImportState.RUNNING)
        .values(state=ImportState.CANCELLED, finished_at=clock.utcnow()),
        execution_options={"synchronize_session": False})
    if result.rowcount != 1:
        db.session.rollback()
        return False
    record("bulk.import.cancel", detail={"import": import_id}, actor=actor)
    db.session.commit()
    return True


def get_import(import_id: int) -> BulkImport | None:
    """One import, or None."""
    return db.session.get(BulkImport, import_id)


def recent_imports() -> list[BulkImport]:
    """The latest imports, newest first."""
    return list(db.session.scalars(
        select(BulkImport).order_by(BulkImport.id.desc()).limit(RECENT)))


def progress(job: BulkImport) -> dict[str, Any]:
    """What the page's poll reads."""
    return {"id": job.id, "state": job.state, "total": job.total, "done": job.done,
            "counts": job.counts, "problems": job.problems,
            "skippedDocuments": job.skipped_documents,
            "finished": job.state != ImportState.RUNNING}


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


def _no_counts() -> dict[str, int]:
    return {"created": 0, "resumed": 0, **{state.value: 0 for state in RowState}}
