"""Verification links: the gateway's single-use links, and the portal's links for merchants."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core.db import Base
from portal.core.models.types import UTCDateTime


class GatewayLink(Base):
    """One verification link the gateway minted (the link itself is single-use and not kept)."""

    __tablename__ = "gateway_links"

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True
    )
    minted_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: Who the page that embedded it was for: 'ops' or 'merchant link'.
    via: Mapped[str] = mapped_column(String(16))
    gid: Mapped[str] = mapped_column(String(64), default="")


class MerchantLink(Base):
    """A signed portal URL that lets one sub-merchant open its verification page, revocably."""

    __tablename__ = "merchant_links"

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True
    )
    #: Bound into the signed token; the row is what revocation and expiry are checked against.
    nonce: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    created_by: Mapped[str] = mapped_column(String(254))
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_by: Mapped[str | None] = mapped_column(String(254))
    last_opened_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: The language the merchant picked on the page this link opens; None: not picked.
    language: Mapped[str | None] = mapped_column(String(8))

    def is_live(self, now: datetime) -> bool:
        """Neither revoked nor expired at ``now``."""
        return self.revoked_at is None and now < self.expires_at


class MerchantLinkCheck(Base):
    """What the merchant's page found about their device before the video call: one report."""

    __tablename__ = "merchant_link_checks"

    id: Mapped[int] = mapped_column(primary_key=True)
    link_id: Mapped[int] = mapped_column(
        ForeignKey("merchant_links.id", ondelete="CASCADE"), index=True
    )
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: 'phone', 'tablet' or 'computer', from the user agent.
    device: Mapped[str] = mapped_column(String(16))
    #: The in-app browser the link opened in ('WhatsApp'...), or empty.
    in_app: Mapped[str] = mapped_column(String(32), default="")
    #: The check that failed (portal.domain.onboarding.device_checks.CHECKS), or empty: ready.
    failed: Mapped[str] = mapped_column(String(32), default="")
