"""What each merchant of an import still needs, from the requirements checklist: the import's
page shows it for the first rows, and the CSV for every row."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from sqlalchemy import select

from portal.core.db import db
from portal.core.models.bulk import BulkImport, BulkImportRow
from portal.core.models.merchant import Merchant
from portal.core.spreadsheet_cells import export_cell
from portal.domain.documents.service import documents_of
from portal.domain.onboarding.drafts import drafts_of
from portal.domain.requirements.checklist import merchant_checklist
from portal.domain.requirements.words import in_words

#: The CSV's header.
HEADER = ("row", "external id", "merchant", "still needed")
#: How many rows the import's page lists (the CSV has them all).
ON_THE_PAGE = 50


@dataclass(frozen=True)
class RowNeeds:
    """One row's merchant and what it still needs, in words."""

    row: int
    external_id: str
    merchant_id: int
    business: str
    needs: list[str]


def still_needed(job: BulkImport, limit: int | None = None) -> list[RowNeeds]:
    """Each row of ``job`` that reached a merchant still in the portal, in the file's order
    (the first ``limit``), with that merchant's checklist rows still open."""
    query = (select(BulkImportRow.number, BulkImportRow.outcome)
             .where(BulkImportRow.import_id == job.id, BulkImportRow.outcome.is_not(None))
             .order_by(BulkImportRow.number))
    found = []
    for number, outcome in db.session.execute(query):
        merchant = db.session.get(Merchant, (outcome or {}).get("merchantId") or 0)
        if merchant is None:
            continue
        items = merchant_checklist(merchant, drafts_of(merchant), documents_of(merchant))
        found.append(RowNeeds(number, merchant.external_onboarding_id, merchant.id,
                              merchant.public_name,
                              [in_words(item.row) for item in items if not item.done]))
        if limit is not None and len(found) >= limit:
            break
    return found


def needs_csv(rows: list[RowNeeds]) -> str:
    """The rows as CSV: row, external id, merchant, what it still needs (one cell, "; " apart)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(HEADER)
    writer.writerows((r.row, export_cell(r.external_id), export_cell(r.business),
                      export_cell("; ".join(r.needs))) for r in rows)
    return out.getvalue()
