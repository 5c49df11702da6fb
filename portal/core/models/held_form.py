"""Forms posted after a session or its CSRF token expired, kept briefly so nothing typed is lost."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core.db import Base
from portal.core.models.types import EncryptedJSON, UTCDateTime


class HeldForm(Base):
    """One refused post: its fields, the page it returns to, and who may take it back."""

    __tablename__ = "held_forms"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: SHA-256 of the random token the browser's session carries to claim it.
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: The user whose recorded session sent it: only they get it back (never an anonymous post).
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    path: Mapped[str] = mapped_column(String(500))
    #: The posted fields as [name, value] pairs, in order (the CSRF token left out); they hold
    #: PANs and account numbers, so they are encrypted at rest like the drafts.
    fields: Mapped[list[Any]] = mapped_column(EncryptedJSON)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
