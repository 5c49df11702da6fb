"""The bulk import page's service: check an upload and queue its import (its rows and the job
in one transaction), cancel it, and read imports back for the page. The worker runs the job
(``portal.features.bulk.import_job``); every audit entry is the importing admin's.
"""

from __future__ import annotations

from typing import Any, BinaryIO

from sqlalchemy import select, update

from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.bulk import ROW_PENDING, BulkImport, BulkImportRow, ImportState
from portal.core.storage.current import current_store
from portal.core.typed_text import without_control_characters
from portal.domain.audit.service import Actor, record
from portal.domain.jobs.queue import enqueue
from portal.features.bulk import staging
from portal.features.bulk.archive import ZipDocuments
from portal.features.bulk.import_job import KIND, chunks
from portal.features.bulk.onboard import RowState
from portal.features.bulk.parsing import BulkRow
from portal.features.bulk.validation import check_file, skipped_documents

#: How many past imports the page lists.
RECENT = 10


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
        for chunk in chunks(job.id, [row.number for row in rows], settings.bulk_chunk_rows):
            enqueue(KIND, chunk.payload())
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


def _no_counts() -> dict[str, int]:
    return {"created": 0, "resumed": 0, **{state.value: 0 for state in RowState}}
