"""Imports started from the admin page: checked in the request, run in a background thread.

The state lives in the ``bulk_imports`` table, so any worker process can answer the progress
poll. Documents are never uploaded from the page: the wizard takes them afterwards.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from flask import Flask
from sqlalchemy import select

from portal import clock
from portal.audit import record
from portal.bulk.onboard import RowOutcome, RowState
from portal.bulk.parsing import BulkRow
from portal.bulk.runner import DEFAULT_CONCURRENCY, run_rows
from portal.bulk.validation import check_file, skipped_documents
from portal.db import db
from portal.models.bulk import BulkImport, ImportState

log = logging.getLogger("portal.bulk")
#: How many past imports the page lists.
RECENT = 10


def submit(app: Flask, content: bytes, filename: str, started_by: str, *,
           skip_invalid: bool = False, concurrency: int = DEFAULT_CONCURRENCY) -> BulkImport:
    """Check the file; unless it has problems (and they are not skipped), start the import."""
    checked = check_file(content, None)
    rows = checked.valid_rows()
    send = bool(rows) and not checked.unreadable and (skip_invalid or not checked.errors)
    job = BulkImport(filename=filename[:255], started_by=started_by,
                     state=ImportState.RUNNING if send else ImportState.INVALID,
                     rows=len(checked.rows), total=len(rows) if send else 0, done=0,
                     counts={}, errors=[e.as_json() for e in checked.errors], problems=[],
                     skipped_documents=skipped_documents(rows) if send else 0)
    db.session.add(job)
    db.session.flush()
    record("bulk.import.start" if send else "bulk.import.invalid",
           detail={"import": job.id, "file": job.filename, "rows": job.rows,
                   "invalid": checked.invalid_count})
    db.session.commit()
    if send:
        threading.Thread(target=_run, args=(app, job.id, rows, concurrency),
                         name=f"bulk-import-{job.id}", daemon=True).start()
    return job


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


def _run(app: Flask, import_id: int, rows: list[BulkRow], concurrency: int) -> None:
    """The background thread: run the rows, recording each outcome as it comes."""
    with app.app_context():
        try:
            summary = run_rows(app, rows, concurrency=concurrency,
                               on_row=lambda outcome: _record_row(import_id, outcome))
            _finish(import_id, ImportState.FINISHED, summary.counts())
        except Exception:  # the thread must leave the import in a final state
            log.exception("bulk import %d stopped", import_id)
            db.session.rollback()
            _finish(import_id, ImportState.CRASHED, None)


def _record_row(import_id: int, outcome: RowOutcome) -> None:
    job = db.session.get(BulkImport, import_id)
    assert job is not None
    counts = dict(job.counts)
    counts["created"] = counts.get("created", 0) + outcome.created
    counts["resumed"] = counts.get("resumed", 0) + outcome.resumed
    counts[outcome.state.value] = counts.get(outcome.state.value, 0) + 1
    job.counts = counts
    job.done += 1
    if outcome.state is not RowState.COMPLETED:
        job.problems = sorted([*job.problems, outcome.as_json()], key=lambda p: p["row"])
    db.session.commit()


def _finish(import_id: int, state: ImportState, counts: dict[str, int] | None) -> None:
    job = db.session.get(BulkImport, import_id)
    assert job is not None
    job.state = state
    job.counts = counts if counts is not None else job.counts
    job.finished_at = clock.utcnow()
    record("bulk.import.end", outcome="ok" if state is ImportState.FINISHED else "error",
           detail={"import": import_id, **job.counts})
    db.session.commit()
