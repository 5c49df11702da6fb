"""Requests to change a merchant's details after the gateway locked them: the values before and
after, the proof, and where the request stands with the gateway's support."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import EncryptedJSON, UTCDateTime
from portal.core.models.user import User


class ChangeState(StrEnum):
    """Where a change request stands, in the order it moves."""

    #: Recorded; waiting for a second person's approval.
    DRAFTED = "drafted"
    #: Approved; its email to the gateway's support not sent yet (or refused by the mail server).
    APPROVED = "approved"
    SENT = "sent"
    #: The gateway's support reset the record: the section is open for this change only.
    REOPENED = "reopened"
    #: The section was sent again with the change: done.
    APPLIED = "applied"
    #: The gateway's support, or the second person, said no.
    REFUSED = "refused"


#: The states a change request is still open in (one open request per section).
OPEN_STATES = frozenset({ChangeState.DRAFTED, ChangeState.APPROVED, ChangeState.SENT,
                         ChangeState.REOPENED})


class ChangeRequest(Base):
    """One requested change of a locked section of a merchant's details."""

    __tablename__ = "change_requests"

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id", ondelete="CASCADE"),
                                             index=True)
    #: The section changed (``portal.domain.change_requests.sections``).
    section: Mapped[str] = mapped_column(String(24))
    #: The step that holds the section (the one a reset record opens again).
    step: Mapped[str] = mapped_column(String(24))
    #: "<merchant id>:<section>" while the request is open, else None: a unique column, so a
    #: second open request for one section cannot be stored, even by two people at once.
    open_key: Mapped[str | None] = mapped_column(String(48), unique=True)
    state: Mapped[str] = mapped_column(String(16), default=ChangeState.DRAFTED)
    #: The section's fields before and after, by the step's payload path; encrypted (account
    #: numbers, PANs).
    old_values: Mapped[dict[str, Any]] = mapped_column(EncryptedJSON)
    new_values: Mapped[dict[str, Any]] = mapped_column(EncryptedJSON)
    reason: Mapped[str] = mapped_column(Text, default="")
    proof_document_id: Mapped[int | None] = mapped_column(
        ForeignKey("stored_documents.id", ondelete="SET NULL"))
    requested_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"))
    requested_by: Mapped[User | None] = relationship(foreign_keys=[requested_by_id],
                                                     lazy="joined")
    approval_request_id: Mapped[int | None] = mapped_column(
        ForeignKey("approval_requests.id", ondelete="SET NULL"))
    #: The gateway support's answer as ops recorded it.
    answer: Mapped[str] = mapped_column(Text, default="")
    #: Why the email could not be sent, in words (empty once it is).
    send_error: Mapped[str] = mapped_column(String(300), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    #: When the request reached its current state.
    state_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
