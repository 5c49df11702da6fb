"""What ops typed for one wizard step of one merchant, and what the gateway said about it."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import EncryptedJSON, UTCDateTime


class StepState(StrEnum):
    """A step's state as the stepper shows it."""

    NOT_STARTED = "not_started"
    DRAFT = "draft"
    SENT = "sent"
    NEEDS_ATTENTION = "needs_attention"
    LOCKED = "locked"
    #: Saved while the gateway was unavailable; the sync sends it (portal.domain.onboarding.outbox).
    QUEUED = "queued"
    #: The gateway's checklist says the step does not apply to the merchant (shown, not stored).
    NOT_NEEDED = "not_needed"


#: States that count as done in the merchants list.
DONE_STATES = (StepState.SENT, StepState.LOCKED, StepState.NOT_NEEDED)


class StepDraft(Base):
    """One step's form data (kept whatever happens to the send) and its last outcome."""

    __tablename__ = "step_drafts"
    __table_args__ = (UniqueConstraint("merchant_id", "step"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True
    )
    step: Mapped[str] = mapped_column(String(32))
    #: The form data, stored encrypted (it holds PANs, the bank account, the signatory's contact).
    payload: Mapped[dict[str, Any]] = mapped_column(EncryptedJSON, default=dict)
    state: Mapped[str] = mapped_column(String(20), default=StepState.DRAFT)
    lock_reason: Mapped[str | None] = mapped_column(String(300))
    #: The last failed send: ``{kind, message, fields: [{field, message}]}`` (gateway paths).
    last_error: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    last_gid: Mapped[str] = mapped_column(String(64), default="")
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    version: Mapped[int] = mapped_column(Integer, default=1)
