"""An ops user's request that an admin set up a merchant's payment credentials: open until an
admin saves them (or it is withdrawn with the merchant). At most one is open per merchant: a
partial unique index, so two people asking at once store one request."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import UTCDateTime
from portal.core.models.user import User

#: The rows the unique index covers: the open ones.
OPEN = text("closed_at IS NULL")


class PaymentSetupRequest(Base):
    """One "ask an admin to set up payments", and when and by whom it was done."""

    __tablename__ = "payment_setup_requests"
    __table_args__ = (Index("uq_payment_setup_requests_open", "merchant_id", unique=True,
                            sqlite_where=OPEN, postgresql_where=OPEN),)

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True)
    asked_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    asked_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    closed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))

    #: Who asked (None: their account is gone).
    asker: Mapped[User | None] = relationship(foreign_keys=[asked_by_id])
