"""A bulk import started from the admin page: its file's report, progress and outcome."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import EncryptedJSON, UTCDateTime


class ImportState(StrEnum):
    """Where an import stands."""

    #: The file had problems and nothing was sent.
    INVALID = "invalid"
    RUNNING = "running"
    FINISHED = "finished"
    #: An admin stopped it: the rows not yet done stay undone.
    CANCELLED = "cancelled"
    #: The import stopped on an unexpected error (re-uploading the file resumes).
    CRASHED = "crashed"


#: A row's state until a worker has run it; then its ``RowState``
#: (``portal.features.bulk.onboard``).
ROW_PENDING = "pending"


class BulkImport(Base):
    """One uploaded file: the rows checked, the problems found, the rows done so far."""

    __tablename__ = "bulk_imports"

    id: Mapped[int] = mapped_column(primary_key=True)
    filename: Mapped[str] = mapped_column(String(255))
    started_by: Mapped[str] = mapped_column(String(254))
    #: The admin who started it: every audit entry of the import is theirs.
    started_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"))
    state: Mapped[str] = mapped_column(String(16), default=ImportState.RUNNING)
    #: Rows in the file, and rows sent (the valid ones).
    rows: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    done: Mapped[int] = mapped_column(Integer, default=0)
    #: The summary's figures: created, resumed, completed, awaiting_documents, failed.
    counts: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    #: The validation report: ``[{row, column, message}]``.
    errors: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    #: Outcomes of the rows that did not complete, as ``RowOutcome.as_json()``; encrypted, as
    #: they name the documents still owed (whose types embed owners' PANs).
    problems: Mapped[list[dict[str, Any]]] = mapped_column(EncryptedJSON, default=list)
    #: Document cells left for the wizard (an upload without a ZIP of documents).
    skipped_documents: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class BulkImportRow(Base):
    """One valid row of an import: its form data, then how it ended (set once, by a worker)."""

    __tablename__ = "bulk_import_rows"
    __table_args__ = (UniqueConstraint("import_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    import_id: Mapped[int] = mapped_column(ForeignKey("bulk_imports.id", ondelete="CASCADE"))
    #: The spreadsheet row number (the header is row 1).
    number: Mapped[int] = mapped_column(Integer)
    #: The row's form data per step, as ``BulkRow.forms``; encrypted (PANs, bank account).
    forms: Mapped[dict[str, Any]] = mapped_column(EncryptedJSON)
    #: The row's documents staged from the ZIP, as ``DocumentCell.as_json()``; encrypted (file
    #: names may carry PANs). None: the row names none, or they were left for the wizard.
    documents: Mapped[list[dict[str, Any]] | None] = mapped_column(EncryptedJSON)
    state: Mapped[str] = mapped_column(String(24), default=ROW_PENDING)
    #: ``RowOutcome.as_json()`` once run; encrypted like the import's problems.
    outcome: Mapped[dict[str, Any] | None] = mapped_column(EncryptedJSON)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
