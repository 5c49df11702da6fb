"""Failed sign-ins counted per account and client address, so a stranger who types wrong
passwords for someone's email locks only their own address out of that account."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core.db import Base
from portal.core.models.types import UTCDateTime


class LoginFailure(Base):
    """Consecutive failures at one account from one address, and until when they lock it."""

    __tablename__ = "login_failures"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: Attempts claimed since the last success from this address (or the last lock's start).
    failures: Mapped[int] = mapped_column(default=0)
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
