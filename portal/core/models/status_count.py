"""How many merchants hold each status, kept by every status change (the dashboard's chart)."""

from __future__ import annotations

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core.db import Base

#: The key of merchants without a status yet (their create has not reached the gateway).
NO_STATUS = ""


class MerchantStatusCount(Base):
    """The number of merchants whose ``Merchant.status`` is ``status`` (``NO_STATUS`` for
    none): equal to a count grouped by status, without reading every merchant."""

    __tablename__ = "merchant_status_counts"

    status: Mapped[str] = mapped_column(String(32), primary_key=True)
    merchants: Mapped[int]
