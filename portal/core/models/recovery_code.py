"""Single-use recovery codes: the second factor of a user who has lost their authenticator."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core.db import Base
from portal.core.models.types import UTCDateTime


class RecoveryCode(Base):
    """One recovery code, stored as its SHA-256; ``used_at`` is set when it is spent."""

    __tablename__ = "recovery_codes"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    code_hash: Mapped[str] = mapped_column(String(64))
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
