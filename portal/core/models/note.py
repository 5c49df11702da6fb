"""Notes staff keep on a merchant: who wrote what, when. Kept for good (never edited)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import EncryptedText, UTCDateTime


class MerchantNote(Base):
    """One note on one merchant."""

    __tablename__ = "merchant_notes"

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True)
    author_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    #: The author's email when it was written (kept if the account goes).
    author_label: Mapped[str] = mapped_column(String(254))
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    #: What was typed; encrypted like KYC data, since people write phone numbers and names.
    text: Mapped[str] = mapped_column(EncryptedText)
