"""Hand-overs of a merchant's verification to their phone: a short-lived, single-use link."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core.db import Base
from portal.core.models.types import UTCDateTime


class PhoneHandover(Base):
    """One hand-over of a merchant link to a phone (by QR code or text message). Only the
    newest of a link can be opened, once, before ``expires_at``."""

    __tablename__ = "phone_handovers"

    id: Mapped[int] = mapped_column(primary_key=True)
    link_id: Mapped[int] = mapped_column(
        ForeignKey("merchant_links.id", ondelete="CASCADE"), index=True
    )
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True
    )
    #: Bound into the signed hand-over token.
    nonce: Mapped[str] = mapped_column(String(64), unique=True)
    #: 'qr' or 'sms': how it reached the phone.
    via: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: When the phone opened it (it opens once).
    opened_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: When a status read from the gateway, asked by the phone's page, found verification done.
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
