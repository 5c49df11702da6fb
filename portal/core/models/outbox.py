"""A step send waiting for the gateway to come back: what to send, when, and how it went."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import EncryptedJSON, UTCDateTime


class OutboxState(StrEnum):
    """Where a queued send stands."""

    PENDING = "pending"
    #: Claimed by one drain; nobody else sends it unless the claim goes stale.
    SENDING = "sending"
    SENT = "sent"
    #: The gateway refused it (400): it is not retried; the step needs attention.
    FAILED = "failed"
    #: A newer save of the same step came first: this older data is never sent.
    SUPERSEDED = "superseded"


#: States in which an item will still be sent.
LIVE_STATES = (OutboxState.PENDING, OutboxState.SENDING)


class OutboxItem(Base):
    """One queued step send: the validated body as it was saved, and its delivery attempts."""

    __tablename__ = "outbox_items"
    __table_args__ = (Index("ix_outbox_items_state_next_attempt_at", "state", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True
    )
    step: Mapped[str] = mapped_column(String(32))
    #: The StepDraft.version this body was built from; a newer version supersedes the item.
    draft_version: Mapped[int] = mapped_column(Integer)
    #: The request body, validated with the step's shape, exactly as it will be sent; stored
    #: encrypted like the draft it comes from.
    payload: Mapped[Any] = mapped_column(EncryptedJSON)
    state: Mapped[str] = mapped_column(String(16), default=OutboxState.PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_error: Mapped[str] = mapped_column(String(300), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
