"""What a staff member is told about the merchants they own (and an admin of the payments ops
ask them to set up): an in-app notice, emailed by a worker at once or in a daily digest
(``portal.features.notifications``).

A notice is added in the same transaction as the event it tells of (a status move, a pendency
kept, a hand-over), so an event that did not happen tells nobody and one that did is told once.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core import clock
from portal.core.db import Base
from portal.core.models.merchant import Merchant
from portal.core.models.types import UTCDateTime


class NoticeKind(StrEnum):
    """What a notice tells of."""

    #: The gateway moved the merchant to RFI, REJECTED or APPROVED.
    STATUS = "status"
    #: The gateway reported a pendency (MERCHANT_PENDENCY_STATUS_UPDATED).
    PENDENCY = "pendency"
    #: A colleague (or an admin) handed the merchant to its new owner.
    HANDOVER = "handover"
    #: A payment the gateway declined for now was authorised after all: capture or release it.
    LATE_HOLD = "late_hold"
    #: Someone paused or deactivated the merchant (``stop_id``).
    STOP = "stop"
    #: The gateway accepted the merchant for a product (its approval's name in ``status``).
    PRODUCT = "product"
    #: The merchant's link had expired or was withdrawn; from its page they asked for a new one.
    LINK_RENEWED = "link_renewed"
    #: The merchant uploaded a document asked of them on their link: it waits for review.
    MERCHANT_UPLOAD = "merchant_upload"
    #: A live merchant's product approvals (their names in ``status``, space-separated) are
    #: now held up by the pendency the gateway reported (``webhook_event_id``), or no longer.
    BLOCKED = "blocked"
    UNBLOCKED = "unblocked"
    #: The gateway reported a pendency on a live merchant that blocks no product.
    LIVE_PENDENCY = "live_pendency"
    #: An ops user asked the admins to set up the merchant's payments (``by_user_id``).
    PAYMENTS_ASKED = "payments_asked"
    #: An admin (``by_user_id``) set up the payments the reader asked for.
    PAYMENTS_SET_UP = "payments_set_up"
    #: The gateway's support answered a change request of the merchant's locked details
    #: (``status``: "reset" or "refused").
    CHANGE_ANSWERED = "change_answered"


class MailState(StrEnum):
    """Where a notice's email stands."""

    #: Not emailed yet: at the next worker pass, or in the owner's next digest.
    PENDING = "pending"
    #: Claimed by a worker that is sending it (committed before the SMTP call).
    SENDING = "sending"
    SENT = "sent"
    #: The mail server refused it; not tried again (the notice is still shown in the portal).
    FAILED = "failed"
    #: Its worker died while sending: it may or may not have gone, and is never sent again.
    INTERRUPTED = "interrupted"
    #: Nobody to email (the owner was deactivated before it went).
    SKIPPED = "skipped"


class Notice(Base):
    """One thing one user is told about one merchant."""

    __tablename__ = "notices"
    __table_args__ = (Index("ix_notices_user_id_read_at", "user_id", "read_at"),
                      Index("ix_notices_mail_state", "mail_state"))

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    #: The status moved to (STATUS); the product approval accepted (PRODUCT), blocked or
    #: unblocked (BLOCKED, UNBLOCKED).
    status: Mapped[str | None] = mapped_column(String(32))
    #: The webhook event whose pendency was kept (PENDENCY, LIVE_PENDENCY, BLOCKED, UNBLOCKED):
    #: ``merchant_pendencies`` has one row per event.
    webhook_event_id: Mapped[int | None] = mapped_column(Integer)
    #: Who handed the merchant over (HANDOVER), and the note they left with it.
    by_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    note_id: Mapped[int | None] = mapped_column(
        ForeignKey("merchant_notes.id", ondelete="SET NULL"))
    #: The payment it is about (LATE_HOLD).
    payment_id: Mapped[int | None] = mapped_column(
        ForeignKey("payments.id", ondelete="CASCADE"))
    #: The pause or deactivation it tells of (STOP).
    stop_id: Mapped[int | None] = mapped_column(
        ForeignKey("merchant_stops.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    read_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    mail_state: Mapped[str] = mapped_column(String(16), default=MailState.PENDING)
    #: When a worker claimed it for sending, and when the mail server took it.
    mail_claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    mailed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    @classmethod
    def for_owner_of(cls, merchant: Merchant, kind: NoticeKind, **facts: object) -> list[Notice]:
        """The notices of ``kind`` to add, in the event's own transaction: one for the
        merchant's owner, none when it has no owner."""
        if merchant.owner_id is None:
            return []
        return [cls(user_id=merchant.owner_id, merchant_id=merchant.id, kind=kind,
                    created_at=clock.utcnow(), mail_state=MailState.PENDING, **facts)]
