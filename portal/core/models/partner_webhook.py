"""The webhooks the portal sends out to a partner's own software: the endpoints admins register,
the events the portal writes as things happen, and each event's delivery to each endpoint.

An event is written in the same transaction as the change it reports, with one delivery per
active endpoint that wants its type; a worker sends the deliveries
(``portal.domain.partner_events``). Not to be confused with ``webhook_events``: those are the
gateway's webhooks coming in.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import EncryptedText, UTCDateTime
from portal.core.models.user import User


class DeliveryState(StrEnum):
    """Where one event's delivery to one endpoint stands."""

    #: Waiting for its first try, or for its next one after a failure (``next_attempt_at``).
    PENDING = "pending"
    #: Claimed by a worker that is posting it; a claim older than the lease is a dead
    #: worker's, and another takes it again (the receiver may get it twice: same webhook-id).
    SENDING = "sending"
    #: The endpoint answered 2xx.
    DELIVERED = "delivered"
    #: Every try of the retry schedule failed: not tried again unless sent again by hand.
    FAILED = "failed"


class PartnerEndpoint(Base):
    """One URL of a partner's software and the event types it wants.

    ``secret`` signs every delivery. While a secret is rotated the previous one signs too, until
    ``previous_expires_at``, so the partner can switch without losing a delivery.
    """

    __tablename__ = "partner_endpoints"

    id: Mapped[int] = mapped_column(primary_key=True)
    url: Mapped[str] = mapped_column(String(500))
    description: Mapped[str] = mapped_column(String(200), default="")
    #: The event type names it wants (``portal.domain.partner_events.catalogue``).
    event_types: Mapped[list[str]] = mapped_column(JSON, default=list)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    #: Standard Webhooks secrets (``whsec_...``), encrypted under the KYC keys.
    secret: Mapped[str] = mapped_column(EncryptedText)
    previous_secret: Mapped[str | None] = mapped_column(EncryptedText)
    previous_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_by: Mapped[User | None] = relationship(foreign_keys=[created_by_id], lazy="joined")
    disabled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    def __repr__(self) -> str:
        return f"<PartnerEndpoint {self.id} active={self.active}>"


class PartnerEvent(Base):
    """One thing that happened, as partners are told of it: its type and JSON payload."""

    __tablename__ = "partner_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: The stable id partners see (``evt_...``): the webhook-id header of every try.
    event_id: Mapped[str] = mapped_column(String(40), unique=True)
    type: Mapped[str] = mapped_column(String(48))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: What makes the event happen once (a payment's capture): a second report of the same
    #: change writes no second event. None: every report is an event of its own.
    once_key: Mapped[str | None] = mapped_column(String(120), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)


class PartnerDelivery(Base):
    """One event sent to one endpoint: its tries and the last answer."""

    __tablename__ = "partner_deliveries"
    __table_args__ = (
        Index("ix_partner_deliveries_state_next_attempt_at", "state", "next_attempt_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("partner_events.id", ondelete="CASCADE"),
                                          index=True)
    event: Mapped[PartnerEvent] = relationship(lazy="joined")
    endpoint_id: Mapped[int] = mapped_column(
        ForeignKey("partner_endpoints.id", ondelete="CASCADE"), index=True)
    state: Mapped[str] = mapped_column(String(16), default=DeliveryState.PENDING)
    #: Tries begun so far (a try whose worker died counts).
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    #: When the worker sending it claimed it (SENDING).
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: The endpoint's last HTTP status (None: no answer), and what went wrong, in words.
    last_status: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str] = mapped_column(String(300), default="")
    last_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
