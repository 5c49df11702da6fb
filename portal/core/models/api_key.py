"""The partners' API keys, their per-minute counts and the answers kept for Idempotency-Key."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import UTCDateTime
from portal.core.models.user import User


class KeyState(StrEnum):
    """Whether a key opens the API: a key with the payments scope waits for a second admin."""

    AWAITING_APPROVAL = "awaiting_approval"
    ACTIVE = "active"


class ApiKey(Base):
    """One key a partner's software calls the API with.

    The secret is never stored: ``lookup_id`` (public, in the token) finds the row and
    ``secret_hash`` (SHA-256 of the secret part) is compared in constant time.
    """

    __tablename__ = "api_keys"
    __table_args__ = (
        CheckConstraint("state IN ('awaiting_approval', 'active')", name="state"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    lookup_id: Mapped[str] = mapped_column(String(16), unique=True)
    secret_hash: Mapped[str] = mapped_column(String(64))
    scopes: Mapped[list[str]] = mapped_column(JSON)
    state: Mapped[str] = mapped_column(String(24), default=KeyState.ACTIVE)
    #: Calls allowed per minute, counted across every host in ``api_rate_windows``.
    per_minute: Mapped[int] = mapped_column(Integer, default=120)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_by: Mapped[User | None] = relationship(foreign_keys=[created_by_id], lazy="joined")
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    def __repr__(self) -> str:
        return f"<ApiKey {self.id} {self.name} {self.state}>"


class ApiRateWindow(Base):
    """How many calls one key made in one minute (``minute``: whole minutes since the epoch)."""

    __tablename__ = "api_rate_windows"

    api_key_id: Mapped[int] = mapped_column(ForeignKey("api_keys.id", ondelete="CASCADE"),
                                            primary_key=True)
    minute: Mapped[int] = mapped_column(Integer, primary_key=True)
    calls: Mapped[int] = mapped_column(Integer, default=0)


class IdempotentRequest(Base):
    """A POST made with an Idempotency-Key: claimed before it runs, its answer kept after."""

    __tablename__ = "api_idempotent_requests"
    __table_args__ = (UniqueConstraint("api_key_id", "idempotency_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    api_key_id: Mapped[int] = mapped_column(ForeignKey("api_keys.id", ondelete="CASCADE"))
    idempotency_key: Mapped[str] = mapped_column(String(255))
    #: SHA-256 of the method, the path and the body: a repeat must be the same request.
    fingerprint: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow, index=True)
    #: None while the first request is still running.
    status: Mapped[int | None] = mapped_column(Integer)
    answer: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    location: Mapped[str] = mapped_column(Text, default="")
