"""Payment links: a hold's checkout sent to the customer by email, as a portal URL that mints
the gateway's hosted checkout only when the customer opens it."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import CheckConstraint, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import UTCDateTime


class LinkState(StrEnum):
    """Where a payment link stands (``portal.domain.payments.links.standing`` words it)."""

    #: Emailed (or about to be), not opened yet: the customer may open it until it expires.
    WAITING = "waiting"
    #: The customer opened it and the gateway's checkout is being minted: nobody else may.
    OPENING = "opening"
    #: The checkout was minted and the customer sent to it: the link is used up.
    OPENED = "opened"
    #: Withdrawn by the partner's staff before it was opened.
    CANCELLED = "cancelled"


class PaymentLink(Base):
    """The one link of a hold the customer pays by email.

    ``nonce`` is bound into the signed token the email carries; resending replaces it (the
    older email's link stops working) and starts the link's lifetime again. Every move of
    ``state`` is one conditional UPDATE, so two opens at once mint one checkout.
    """

    __tablename__ = "payment_links"
    __table_args__ = (
        CheckConstraint("state IN ('waiting', 'opening', 'opened', 'cancelled')",
                        name="state"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    payment_id: Mapped[int] = mapped_column(
        ForeignKey("payments.id", ondelete="CASCADE"), unique=True)
    nonce: Mapped[str] = mapped_column(String(64), unique=True)
    state: Mapped[str] = mapped_column(String(16), default=LinkState.WAITING)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    #: When the mail server last accepted the link's email, and how many it accepted.
    emailed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    emails_sent: Mapped[int] = mapped_column(default=0)
    #: When the last email was refused by the mail server (cleared once one is accepted).
    email_failed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: When the customer opened it (the checkout's minting began).
    opened_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: Why the last open could not mint the checkout, in words for the staff (empty: none).
    failure: Mapped[str] = mapped_column(String(300), default="")
    cancelled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    cancelled_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"))
    #: The language the customer picked on the link's page; None: the merchant's.
    language: Mapped[str | None] = mapped_column(String(8))

    def __repr__(self) -> str:
        return f"<PaymentLink {self.id} payment={self.payment_id} {self.state}>"
