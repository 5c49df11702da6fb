"""Webhook deliveries as received: kept raw, deduplicated, processed once the status is re-read."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String, Text
from sqlalchemy.orm import Mapped, mapped_column

from portal.core.db import Base
from portal.core.models.types import UTCDateTime


class WebhookEvent(Base):
    """One distinct webhook event; a redelivery hits the unique ``dedup_key`` and is dropped."""

    __tablename__ = "webhook_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: The payload's ``event_id``, or ``sha256:<hex>`` of the raw body when it has none.
    dedup_key: Mapped[str] = mapped_column(String(160), unique=True)
    event_name: Mapped[str] = mapped_column(String(80), default="")
    onboarding_id: Mapped[str] = mapped_column(String(64), default="", index=True)
    body: Mapped[str] = mapped_column(Text)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: None until the status was re-read (or there was nothing to re-read); the sync retries.
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
    outcome: Mapped[str] = mapped_column(String(200), default="")
