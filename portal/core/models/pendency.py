"""What the gateway reported as holding up a merchant (MERCHANT_PENDENCY_STATUS_UPDATED).

One row per event, never updated: the newest event about a category and sub-category says
where that pendency stands (events arrive out of order, and more than once).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import EncryptedText, UTCDateTime


class MerchantPendency(Base):
    """One pendency as one webhook event reported it (``pendency_info_*``)."""

    __tablename__ = "merchant_pendencies"

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True
    )
    #: The webhook event that reported it: each event is kept once.
    webhook_event_id: Mapped[int] = mapped_column(Integer, unique=True)
    category: Mapped[str] = mapped_column(String(64), default="")
    #: Encrypted, like the document keys it may name (an owner's names its PAN).
    sub_category: Mapped[str] = mapped_column(EncryptedText, default="")
    #: The gateway's own words about it; encrypted for the same reason.
    reason: Mapped[str] = mapped_column(EncryptedText, default="")
    status: Mapped[str] = mapped_column(String(32), default="")
    #: When the gateway raised it (``pendency_info_creation_time``).
    raised_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: When the gateway sent the event (``event_timestamp``): the newest says where it stands.
    reported_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: Whether it holds up the cards approval, and the MCA approval (None: not said).
    cards_approval_blocking: Mapped[bool | None] = mapped_column(Boolean)
    mca_approval_blocking: Mapped[bool | None] = mapped_column(Boolean)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
