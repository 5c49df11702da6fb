"""Rows whose create's outcome was unknown, moved on once their merchant is linked.

A row ends as OUTCOME_UNKNOWN when its create was sent and no answer came back (its worker may
have been killed during the call). The merchant is linked later, by the sync when a webhook
names its record (``onboarding.reconcile.reconcile_from_webhooks``) or by ops in the wizard;
each sync pass then moves such rows to LINKED, with the import's counts and problems, so the
import no longer says "may or may not have been created" of a merchant that was.

Only imports that are not running are touched: a running import's worker writes its own counts.
Each import is locked (PostgreSQL: ``FOR UPDATE``; SQLite has one writer at a time) while its
rows move and its counts are counted again from its rows, so two passes at once agree.
"""

from __future__ import annotations

from sqlalchemy import func, select, update

from portal.core import clock
from portal.core.db import db
from portal.core.models.bulk import BulkImport, BulkImportRow, ImportState
from portal.core.models.merchant import CreateState, Merchant
from portal.domain.audit.service import record
from portal.features.bulk.import_job import importer
from portal.features.bulk.onboard import RowState


def linked_reason(merchant: Merchant) -> str:
    """What a moved row says."""
    return (f"Its create's outcome was unknown; it has since been linked to the gateway's "
            f"record {merchant.onboarding_id}, so it was created. Its other steps are still to "
            "send: upload the file again, or continue in the wizard.")


def settle_linked_rows() -> int:
    """Move every OUTCOME_UNKNOWN row of a finished import whose merchant is now created to
    LINKED; how many moved; commits."""
    unknown = db.session.execute(
        select(BulkImportRow.id, BulkImportRow.import_id, BulkImportRow.outcome).join(BulkImport)
        .where(BulkImportRow.state == RowState.OUTCOME_UNKNOWN,
               BulkImport.state != ImportState.RUNNING)).all()
    by_import: dict[int, dict[int, Merchant]] = {}
    for row_id, import_id, outcome in unknown:
        merchant = db.session.get(Merchant, (outcome or {}).get("merchantId") or 0)
        if merchant is not None and merchant.create_state == CreateState.CREATED:
            by_import.setdefault(import_id, {})[row_id] = merchant
    db.session.commit()
    return sum(_settle(import_id, rows) for import_id, rows in by_import.items())


def _settle(import_id: int, rows: dict[int, Merchant]) -> int:
    """Move ``rows`` (row id -> its now linked merchant) of one import; commits."""
    job = db.session.scalars(select(BulkImport).where(BulkImport.id == import_id)
                             .with_for_update()).one()
    moved = {}
    for row_id, merchant in rows.items():
        row = db.session.get(BulkImportRow, row_id, populate_existing=True)
        if row is None or row.state != RowState.OUTCOME_UNKNOWN:
            continue  # another pass moved it
        row.state = RowState.LINKED
        row.outcome = {**(row.outcome or {}), "state": RowState.LINKED.value,
                       "status": merchant.status, "reason": linked_reason(merchant)}
        row.finished_at = clock.utcnow()
        moved[row.number] = row.outcome
    if moved:
        db.session.flush()
        states = dict(db.session.execute(
            select(BulkImportRow.state, func.count()).where(BulkImportRow.import_id == import_id)
            .group_by(BulkImportRow.state)).all())
        counts = {**job.counts, **{state.value: states.get(state.value, 0) for state in RowState}}
        problems = [moved.get(problem["row"], problem) for problem in job.problems]
        db.session.execute(update(BulkImport).where(BulkImport.id == import_id)
                           .values(counts=counts, problems=problems),
                           execution_options={"synchronize_session": False})
        record("bulk.import.linked", actor=importer(job),
               detail={"import": import_id, "rows": sorted(moved)})
    db.session.commit()
    return len(moved)
