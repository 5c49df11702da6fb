"""Checking a whole file before anything is sent, with the wizard's own rules.

Each step's form data goes through the step table's request builder and the shared shapes
(``validate_payload``), exactly as a wizard send does; gateway field paths are mapped back to
CSV columns. On top: ids repeated in the file, ids the portal knows under another PAN, owners
who are no active user, and the files a row names (they must exist, beside the CSV or in the
ZIP uploaded with it, and be a PDF, JPEG or PNG under the upload limit).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from sqlalchemy import select

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.documents.service import read_upload
from portal.domain.onboarding.steps import BY_KEY
from portal.domain.ownership.imports import active_owners, unknown_owner
from portal.features.bulk.columns import EXTERNAL_ID, FORM_STEPS, OWNER, PAN, column_for
from portal.features.bulk.parsing import BulkRow, parse_csv
from portal.features.bulk.report import HEADER_ROW, RowError
from portal.gateway import rules
from portal.gateway.shapes import validate_payload


class DocumentSource(Protocol):
    """Where the files a CSV names are: its folder (the CLI) or a ZIP (the page)."""

    def problem(self, name: str) -> str:
        """Why the file ``name`` cannot be sent ('' when it can)."""
        ...


@dataclass(frozen=True)
class Files:
    """Where a file's documents are (the CSV's folder) and the largest one accepted."""

    base: Path
    max_bytes: int

    def problem(self, name: str) -> str:
        """The file must exist beside the CSV and be a document the portal accepts."""
        path = self.base / name
        if not path.is_file():
            return f"No such file: {name} (paths are relative to the CSV)"
        with path.open("rb") as stream:
            return read_upload(stream, self.max_bytes).error


def validate_rows(rows: list[BulkRow], files: DocumentSource | None,
                  known: list[RowError] | None = None) -> list[RowError]:
    """Every problem of every row, by row; ``known`` (unreadable cells) take precedence."""
    errors = list(known or [])
    taken = {(e.row, e.column) for e in errors}
    for row in rows:
        errors += [e for e in step_errors(row) if (e.row, e.column) not in taken]
        if files is not None:
            errors += document_errors(row, files)
    errors += duplicate_errors(rows) + portal_errors(rows) + owner_errors(rows)
    return sorted(errors, key=lambda e: e.row)


def step_errors(row: BulkRow) -> list[RowError]:
    """The row's form data checked step by step as the wizard would send it."""
    errors = []
    for key in FORM_STEPS:
        step = BY_KEY[key]
        assert step.request is not None
        _, found = validate_payload(step.shape, step.request(row.forms[key]), each_field=True)
        errors += [RowError(row.number, column_for(key, e.field), e.message) for e in found]
    return errors


def duplicate_errors(rows: list[BulkRow]) -> list[RowError]:
    """An externalOnboardingId may appear once per file."""
    counts = Counter(row.external_id for row in rows if row.external_id)
    first: dict[str, int] = {}
    errors = []
    for row in rows:
        if counts[row.external_id] > 1:
            if row.external_id in first:
                errors.append(RowError(row.number, EXTERNAL_ID,
                                       f"Repeats row {first[row.external_id]}'s id"))
            first.setdefault(row.external_id, row.number)
    return errors


def portal_errors(rows: list[BulkRow]) -> list[RowError]:
    """A row may resume a merchant the portal knows only if the PAN is the same."""
    ids = {row.external_id for row in rows if row.external_id}
    pans = dict(db.session.execute(
        select(Merchant.external_onboarding_id, Merchant.pan)
        .where(Merchant.external_onboarding_id.in_(ids))).all()) if ids else {}
    errors = []
    for row in rows:
        known = pans.get(row.external_id)
        typed = str(row.forms["create"].get(PAN) or "").strip().upper()
        if known and typed and typed != known:
            errors.append(RowError(row.number, PAN, "The portal has a merchant with this "
                                   f"externalOnboardingId and the PAN {rules.mask(known)}; "
                                   "an id is never reused"))
    return errors


def owner_errors(rows: list[BulkRow]) -> list[RowError]:
    """An owner, when named, is the email of an active user of the portal (one statement)."""
    named = {row.number: str(row.forms["create"].get(OWNER) or "") for row in rows}
    known = active_owners(named.values())
    return [RowError(number, OWNER, unknown_owner(email)) for number, email in named.items()
            if email.strip() and email.strip().lower() not in known]


def document_errors(row: BulkRow, files: DocumentSource) -> list[RowError]:
    """Each file named must be found and be a document the portal accepts."""
    errors = []
    for cell in row.documents:
        if cell.owner is not None and not row.owner_pan(cell.owner):
            message = f"No PAN for owner {cell.owner + 1}, whose Aadhaar this is"
        else:
            message = files.problem(cell.path)
        if message:
            errors.append(RowError(row.number, cell.column, message))
    return errors


def skipped_documents(rows: list[BulkRow]) -> int:
    """How many file cells an import without documents leaves for the wizard."""
    return sum(len(row.documents) for row in rows)


@dataclass
class CheckedFile:
    """A file read and checked: its rows and every problem found."""

    rows: list[BulkRow]
    errors: list[RowError]

    @property
    def unreadable(self) -> bool:
        """The header itself is wrong: no row can be trusted."""
        return any(e.row == HEADER_ROW for e in self.errors)

    def valid_rows(self) -> list[BulkRow]:
        """The rows without a problem (none when the header is wrong)."""
        bad = {e.row for e in self.errors}
        return [] if self.unreadable else [row for row in self.rows if row.number not in bad]

    @property
    def invalid_count(self) -> int:
        """How many rows have a problem."""
        return len({e.row for e in self.errors if e.row != HEADER_ROW})


def check_file(content: bytes, files: DocumentSource | None) -> CheckedFile:
    """Read and check a whole file; ``files`` is None when documents are left for later."""
    parsed = parse_csv(content)
    return CheckedFile(parsed.rows, validate_rows(parsed.rows, files, parsed.errors))
