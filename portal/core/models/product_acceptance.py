"""A product the gateway accepted a merchant for (a MERCHANT_<PRODUCT>_ACCEPTED webhook).

One row per merchant and product: a second event about the same product (a redelivery, two at
once) stores nothing more.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import UTCDateTime


class MerchantProductAcceptance(Base):
    """The gateway's acceptance of one product (``portal.gateway.onboarding.product_events``)."""

    __tablename__ = "merchant_product_acceptances"
    __table_args__ = (UniqueConstraint("merchant_id", "product"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True
    )
    #: The product as the event names it (``ApprovalProduct``: CARDS, MCA).
    product: Mapped[str] = mapped_column(String(16))
    #: The verified webhook event that reported it.
    webhook_event_id: Mapped[int] = mapped_column(Integer)
    #: When the gateway accepted it (the event's ``event_timestamp``); None when unreadable.
    accepted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
