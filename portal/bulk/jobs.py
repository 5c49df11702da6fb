"""Imports started from the admin page: checked in the request, run row by row by a worker.

The upload's valid rows and the job that runs them are stored in one transaction. A worker
(``flask --app app worker``) sends the rows in file order, writing each row's outcome and the
import's counts together, and only while its lease on the job holds: a worker that took the job
over after a crash goes on from the first row without an outcome (a merchant is never created
twice: the row resumes it). Documents are never uploaded from the page: the wizard takes them.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import select, update

from portal import clock
from portal.audit import record
from portal.bulk.onboard import RowOutcome, RowState
from portal.bulk.parsing import BulkRow
from portal.bulk.runner import bulk_client, onboard_safely
from portal.bulk.validation import check_file, skipped_documents
from portal.db import db
from portal.gateway.onboarding_client import OnboardingClient
from portal.jobs.queue import JobEnd, JobRun, enqueue
from portal.models.bulk import ROW_PENDING, BulkImport, BulkImportRow, ImportState

log = logging.getLogger("portal.bulk")
#: The job kind that runs an import.
KIND = "bulk_import"
#: How many past imports the page lists.
RECENT = 10


def submit(content: bytes, filename: str, started_by: str, *,
           skip_invalid: bool = False) -> BulkImport:
    """Check the file; unless it has problems (and they are not skipped), queue the import."""
    checked = check_file(content, None)
    rows = checked.valid_rows()
    send = bool(rows) and not checked.unreadable and (skip_invalid or not checked.errors)
    job = BulkImport(filename=filename[:255], started_by=started_by,
                     state=ImportState.RUNNING if send else ImportState.INVALID,
                     rows=len(checked.rows), total=len(rows) if send else 0, done=0,
                     counts=_no_counts(), errors=[e.as_json() for e in checked.errors],
                     problems=[], skipped_documents=skipped_documents(rows) if send else 0)
    db.session.add(job)
    db.session.flush()
    if send:
        db.session.add_all(BulkImportRow(import_id=job.id, number=row.number, forms=row.forms,
                                         state=ROW_PENDING) for row in rows)
        enqueue(KIND, {"import": job.id})
    record("bulk.import.start" if send else "bulk.import.invalid",
           detail={"import": job.id, "file": job.filename, "rows": job.rows,
                   "invalid": checked.invalid_count})
    db.session.commit()
    return job


def cancel(import_id: int) -> bool:
    """Stop a running import after the row being sent; False if it was over already."""
    result = db.session.execute(
        update(BulkImport).where(BulkImport.id == import_id,
                                 BulkImport.state == ImportState.RUNNING)
        .values(state=ImportState.CANCELLED, finished_at=clock.utcnow()),
        execution_options={"synchronize_session": False})
    if result.rowcount != 1:
        db.session.rollback()
        return False
    record("bulk.import.cancel", detail={"import": import_id})
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
    """The worker's part: send the rows without an outcome, in file order, one at a time."""
    import_id = int(run.payload["import"])
    client = bulk_client()
    try:
        while (row := _next_row(import_id)) is not None:
            if run.stopping.is_set():
                return JobEnd.RELEASED
            outcome = _send(client, row)
            if not run.still_mine():
                db.session.rollback()
                return JobEnd.LOST
            _record_row(import_id, row, outcome)
    except Exception:  # the import must be left in a final state
        log.exception("bulk import %d stopped", import_id)
        db.session.rollback()
        _finish(import_id, ImportState.CRASHED)
        raise
    _finish(import_id, ImportState.FINISHED)
    return JobEnd.DONE


def give_up(payload: dict[str, Any]) -> None:
    """The import's workers kept dying on it: it ends as crashed (uploading it again resumes)."""
    _finish(int(payload["import"]), ImportState.CRASHED)


def _next_row(import_id: int) -> BulkImportRow | None:
    """The first row still to send, None once every row is done or the import was stopped."""
    state = db.session.scalar(select(BulkImport.state).where(BulkImport.id == import_id))
    if state != ImportState.RUNNING:
        return None
    return db.session.scalar(
        select(BulkImportRow).where(BulkImportRow.import_id == import_id,
                                    BulkImportRow.state == ROW_PENDING)
        .order_by(BulkImportRow.number).limit(1))


def _send(client: OnboardingClient, row: BulkImportRow) -> RowOutcome:
    return onboard_safely(client, BulkRow(row.number, row.forms), None)


def _record_row(import_id: int, row: BulkImportRow, outcome: RowOutcome) -> None:
    """The row's outcome and the import's counts, in one transaction; commits."""
    job = db.session.get(BulkImport, import_id, populate_existing=True)
    assert job is not None
    row.state = outcome.state.value
    row.outcome = outcome.as_json()
    row.finished_at = clock.utcnow()
    counts = dict(job.counts)
    counts["created"] = counts.get("created", 0) + outcome.created
    counts["resumed"] = counts.get("resumed", 0) + outcome.resumed
    counts[outcome.state.value] = counts.get(outcome.state.value, 0) + 1
    job.counts = counts
    job.done += 1
    if outcome.state is not RowState.COMPLETED:
        job.problems = sorted([*job.problems, outcome.as_json()], key=lambda p: p["row"])
    db.session.commit()


def _finish(import_id: int, state: ImportState) -> None:
    """End a running import in ``state`` (a cancelled one keeps its state); commits."""
    job = db.session.get(BulkImport, import_id, populate_existing=True)
    assert job is not None
    if job.state == ImportState.RUNNING:
        job.state = state
        job.finished_at = clock.utcnow()
        record("bulk.import.end", outcome="ok" if state is ImportState.FINISHED else "error",
               detail={"import": import_id, **job.counts})
    db.session.commit()


def _no_counts() -> dict[str, int]:
    return {"created": 0, "resumed": 0, **{state.value: 0 for state in RowState}}
