"""Webhook deliveries as received: kept raw, deduplicated, processed once the status is re-read."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import String, Text
from sqlalchemy.orm import Mapped, mapped_column

from portal.core.db import Base
from portal.core.models.types import UTCDateTime


class Verification(StrEnum):
    """How a delivery was shown to come from the gateway (``portal.features.webhooks.trust``)."""

    #: Its ``x-gl-digest`` matched one of the configured secrets.
    DIGEST = "digest"
    #: It came from one of the configured source addresses.
    SOURCE = "source"
    #: Neither: a hint that the status should be read, nothing more.
    NONE = "none"


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
    #: How the delivery was shown to be the gateway's (:class:`Verification`): only a verified
    #: event's facts (a MID, a pendency, a product's acceptance) are kept.
    verified_by: Mapped[str] = mapped_column(String(16), default=Verification.NONE)

    @property
    def verified(self) -> bool:
        """Whether the delivery was shown to come from the gateway."""
        return self.verified_by != Verification.NONE
