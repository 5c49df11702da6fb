"""Every change of a merchant's onboarding status, with what caused it (the status timeline)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import UTCDateTime


class StatusSource(StrEnum):
    """What made the portal learn of a new status."""

    POLL = "poll"
    WEBHOOK = "webhook"
    VERIFICATION_PAGE = "verification page"
    STEP_SEND = "step send"


class StatusChange(Base):
    """One move of ``Merchant.status``: from, to, why and when."""

    __tablename__ = "status_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True
    )
    from_status: Mapped[str | None] = mapped_column(String(32))
    to_status: Mapped[str] = mapped_column(String(32))
    source: Mapped[str] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    gid: Mapped[str] = mapped_column(String(64), default="")
