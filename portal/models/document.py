"""An uploaded document: stored on disk under a generated name, then sent to the gateway."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from portal import clock
from portal.db import Base
from portal.models.types import EncryptedText, UTCDateTime


class DocumentStatus(StrEnum):
    """Where an uploaded document stands."""

    STORED = "stored"
    SENT = "sent"
    NOT_SENT = "not_sent"
    REFUSED = "refused"


class StoredDocument(Base):
    """One file ops uploaded for a merchant."""

    __tablename__ = "stored_documents"

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True
    )
    #: The gateway's document type; encrypted, as an owner's type embeds the owner's PAN.
    doc_type: Mapped[str] = mapped_column(EncryptedText)
    original_filename: Mapped[str] = mapped_column(String(255))
    stored_name: Mapped[str] = mapped_column(String(80), unique=True)
    sha256: Mapped[str] = mapped_column(String(64))
    size: Mapped[int] = mapped_column(Integer)
    content_type: Mapped[str] = mapped_column(String(64))
    uploaded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    sent_gid: Mapped[str] = mapped_column(String(64), default="")
    status: Mapped[str] = mapped_column(String(16), default=DocumentStatus.STORED)
