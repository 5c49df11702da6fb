"""Failed sign-ins counted per client address, shared by every process through the database."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core.db import Base
from portal.core.models.types import UTCDateTime


class LoginThrottle(Base):
    """Failed sign-ins from one client address within the current window."""

    __tablename__ = "login_throttles"

    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    failures: Mapped[int] = mapped_column(default=0)
    window_started_at: Mapped[datetime] = mapped_column(UTCDateTime)
