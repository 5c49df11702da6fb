"""What ops wrote about one document the gateway asks of a merchant: the merchant's wording in
each language and the ops wording, each replacing its default when set (``portal.domain.asks``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import EncryptedText, UTCDateTime


class DocumentAsk(Base):
    """The wording ops chose for one asked document of one merchant."""

    __tablename__ = "document_asks"

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True
    )
    #: The gateway's outstanding-document key; encrypted, as an owner's embeds the owner's PAN.
    doc_key: Mapped[str] = mapped_column(EncryptedText)
    #: What the merchant reads on their link instead of the default, by language code (a
    #: language without words: the default in that language). Replaced whole, never mutated.
    merchant_texts: Mapped[dict[str, str] | None] = mapped_column(JSON)
    #: What ops read instead of the document's label (None: the label).
    ops_words: Mapped[str | None] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    updated_by: Mapped[str] = mapped_column(String(254), default="")
