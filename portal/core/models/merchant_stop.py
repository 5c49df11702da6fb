"""A stop put on a live merchant: new payments paused, or the merchant deactivated; with the
reason from a list, a note, who did it, and who lifted it."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import UTCDateTime


class StopKind(StrEnum):
    """What a stop does."""

    #: Holds and payment links refused; existing holds still captured and released.
    PAUSE = "pause"
    #: Paused, and its links revoked, its reminders stopped, its retention clock started.
    DEACTIVATE = "deactivate"


class MerchantStop(Base):
    """One pause or deactivation; open while ``lifted_at`` is empty."""

    __tablename__ = "merchant_stops"

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    #: A code of ``portal.domain.pausing.reasons``.
    reason: Mapped[str] = mapped_column(String(32))
    note: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    by_name: Mapped[str] = mapped_column(String(254), default="")
    lifted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    lifted_by_name: Mapped[str] = mapped_column(String(254), default="")
    lift_note: Mapped[str] = mapped_column(Text, default="")
