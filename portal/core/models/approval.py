"""Four-eyes requests: a large refund, a key change, a new administrator or an API key with the
payments scope one admin asked for, waiting for another."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import CheckConstraint, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import EncryptedJSON, UTCDateTime
from portal.core.models.user import User


class ApprovalKind(StrEnum):
    """What an approved request does."""

    REFUND = "refund"
    MERCHANT_KEY = "merchant_key"
    PORTFOLIO_KEY = "portfolio_key"
    #: Adding an administrator, or making an operations user one.
    ADMIN_ROLE = "admin_role"
    #: Letting an API key with the payments scope open the API.
    API_KEY = "api_key"
    #: Emailing a change of a merchant's locked details to the gateway's support.
    CHANGE_REQUEST = "change_request"


class ApprovalState(StrEnum):
    """Where a request stands; only ``pending`` may still be decided."""

    PENDING = "pending"
    #: Approved and claimed: its action is being carried out (exactly once).
    RUNNING = "running"
    DONE = "done"
    #: Approved, but the action was refused (the payment or key had changed meanwhile).
    FAILED = "failed"
    #: Approved and sent, the gateway's answer lost: the payment page settles it.
    UNKNOWN = "unknown"
    REJECTED = "rejected"
    EXPIRED = "expired"


class ApprovalRequest(Base):
    """One request for a second admin's approval, with what the action needs to run later.

    ``payload`` holds the action's arguments (a key being imported among them), so it is
    encrypted at rest; ``summary`` is the sentence shown in lists and carries no secret.
    """

    __tablename__ = "approval_requests"
    __table_args__ = (
        CheckConstraint("state IN ('pending', 'running', 'done', 'failed', 'unknown', "
                        "'rejected', 'expired')", name="state"),
        CheckConstraint("kind IN ('refund', 'merchant_key', 'portfolio_key', 'admin_role', "
                        "'api_key', 'change_request')", name="kind"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(24))
    state: Mapped[str] = mapped_column(String(16), default=ApprovalState.PENDING, index=True)
    summary: Mapped[str] = mapped_column(String(300))
    merchant_id: Mapped[int | None] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True)
    payment_id: Mapped[int | None] = mapped_column(
        ForeignKey("payments.id", ondelete="CASCADE"), index=True)
    payload: Mapped[dict[str, Any]] = mapped_column(EncryptedJSON)
    reason: Mapped[str] = mapped_column(Text)
    requested_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"))
    requested_by: Mapped[User | None] = relationship(foreign_keys=[requested_by_id],
                                                     lazy="joined")
    requested_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    decided_by: Mapped[User | None] = relationship(foreign_keys=[decided_by_id], lazy="joined")
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    decision_reason: Mapped[str] = mapped_column(Text, default="")
    #: What carrying the action out said (the payments or credentials page's own message).
    outcome: Mapped[str] = mapped_column(String(500), default="")

    def __repr__(self) -> str:
        return f"<ApprovalRequest {self.id} {self.kind} {self.state}>"
