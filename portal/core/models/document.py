"""An uploaded document: stored on disk under a generated name, then sent to the gateway.

Every upload is a version: a newer one of the same type sent to the gateway replaces the older
(which stays listed, struck through); retention may later delete a version's file while its
metadata stays.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import EncryptedText, UTCDateTime
from portal.core.models.user import User


class DocumentStatus(StrEnum):
    """Where an uploaded document stands."""

    STORED = "stored"
    SENT = "sent"
    NOT_SENT = "not_sent"
    REFUSED = "refused"
    #: Uploaded by the merchant on their link: ops review it before it is sent.
    FROM_MERCHANT = "from_merchant"
    #: A merchant's upload ops refused, with a reason the merchant reads on their link.
    NOT_TAKEN = "not_taken"


class StoredDocument(Base):
    """One file ops (or the merchant, on their link) uploaded for a merchant."""

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
    #: Who uploaded it (None for uploads made by the system, or once the user is deleted).
    uploaded_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"))
    #: The gateway's answer to the send, in words (empty until sent).
    gateway_answer: Mapped[str] = mapped_column(String(500), default="")
    #: The document's status in the gateway's own word (``documentStatus`` of the docs'
    #: answer, e.g. UPLOADED), when its answer said one.
    gateway_status: Mapped[str | None] = mapped_column(String(40))
    #: When retention deleted the stored file (the row stays as the record of what was sent).
    file_deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    #: The merchant link it was uploaded through (None: uploaded by staff or the system); a
    #: link id without a foreign key, so the column is added without rebuilding the table.
    link_id: Mapped[int | None] = mapped_column(Integer)
    #: Why ops refused a merchant's upload, in the words the merchant reads on their link.
    refusal: Mapped[str | None] = mapped_column(String(500))

    uploaded_by: Mapped[User | None] = relationship(foreign_keys=[uploaded_by_id])

    @property
    def file_kept(self) -> bool:
        """Whether the stored bytes are still there to download."""
        return self.file_deleted_at is None
