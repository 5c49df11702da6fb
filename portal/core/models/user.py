"""Portal users: operations staff and administrators."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from flask_login import UserMixin
from sqlalchemy import CheckConstraint, ForeignKey, String, false
from sqlalchemy.orm import Mapped, mapped_column

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import EncryptedText, UTCDateTime


class Role(StrEnum):
    """What a user may do: ops run onboarding, admins also manage users and see the audit."""

    OPS = "ops"
    ADMIN = "admin"


class User(UserMixin, Base):
    """A person who signs in to the portal; the email is stored lower-case."""

    __tablename__ = "users"
    __table_args__ = (CheckConstraint("role IN ('ops', 'admin')", name="role"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16), default=Role.OPS.value)
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    last_login_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: Set when sign-in failures from many addresses lock the account for everyone
    #: (``portal.domain.users.throttle``; one address's failures lock only that address out).
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: Set for a generated one-time password: the user must choose their own at next sign-in.
    must_change_password: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: When a one-time password stops working (None for a password the user chose).
    one_time_password_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: The TOTP shared secret (base32), encrypted at rest like KYC data; set by enrolment,
    #: confirmed when ``totp_enrolled_at`` is.
    totp_secret: Mapped[str | None] = mapped_column(EncryptedText)
    totp_enrolled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: The last TOTP time step accepted, so a code cannot be used twice.
    totp_last_step: Mapped[int | None] = mapped_column()
    #: Who could have held this account's credentials besides its owner: the admin who added
    #: it, who made it an administrator, who last gave it a one-time password. None of them
    #: may approve with it what they asked for themselves (``portal.domain.users.vouching``).
    created_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"))
    promoted_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"))
    password_issued_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"))
    #: How the user is emailed their notices: each at once, or a daily digest
    #: (``portal.features.notifications``).
    notice_mode: Mapped[str] = mapped_column(String(16), default="immediate",
                                             server_default="immediate")

    @property
    def is_active(self) -> bool:
        """Deactivated users cannot sign in (flask-login reads this)."""
        return self.active

    @property
    def has_totp(self) -> bool:
        """True once the user has confirmed an authenticator app."""
        return self.totp_enrolled_at is not None and self.totp_secret is not None

    def has_role(self, *roles: str) -> bool:
        """True when the user holds one of ``roles``."""
        return self.role in roles

    def __repr__(self) -> str:
        return f"<User {self.id} {self.email} {self.role}>"
