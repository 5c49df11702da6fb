"""What the portal emails: templates admins edit, reminders sent, password-reset requests."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from portal.core.db import Base
from portal.core.models.types import UTCDateTime


class MailTemplate(Base):
    """An admin's version of one email's subject and body in one language (absent: the
    built-in text of that language). A team email has only its English one."""

    __tablename__ = "mail_templates"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    #: The language it is written in (``portal.core.languages``).
    language: Mapped[str] = mapped_column(String(8), primary_key=True)
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_by: Mapped[str] = mapped_column(String(254))


class VerificationReminder(Base):
    """One reminder emailed to a merchant waiting for its own verification."""

    __tablename__ = "verification_reminders"

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True
    )
    sent_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PasswordResetRequest(Base):
    """One 'forgot password' request, known email or not, counted to throttle them."""

    __tablename__ = "password_reset_requests"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), index=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    requested_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
