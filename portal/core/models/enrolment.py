"""An authenticator being set up: its secret belongs to the one sign-in session that asked."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core.db import Base
from portal.core.models.types import EncryptedText, UTCDateTime


class PendingEnrolment(Base):
    """The secret shown to one session, until that session confirms it with a first code.

    A session has at most one; it goes with the session (sign-out, password change) and is
    replaced each time the page shows a new key. Encrypted at rest like the user's secret.
    """

    __tablename__ = "pending_enrolments"

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("user_sessions.id", ondelete="CASCADE"), unique=True)
    secret: Mapped[str] = mapped_column(EncryptedText)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
