"""A bulk import started from the admin page: its file's report, progress and outcome."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from portal import clock
from portal.db import Base
from portal.models.types import EncryptedJSON, UTCDateTime


class ImportState(StrEnum):
    """Where an import stands."""

    #: The file had problems and nothing was sent.
    INVALID = "invalid"
    RUNNING = "running"
    FINISHED = "finished"
    #: The import thread stopped on an unexpected error (re-uploading the file resumes).
    CRASHED = "crashed"


class BulkImport(Base):
    """One uploaded file: the rows checked, the problems found, the rows done so far."""

    __tablename__ = "bulk_imports"

    id: Mapped[int] = mapped_column(primary_key=True)
    filename: Mapped[str] = mapped_column(String(255))
    started_by: Mapped[str] = mapped_column(String(254))
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
    #: Document cells left for the wizard (the page never uploads files).
    skipped_documents: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
