"""The partner's branding on what a sub-merchant sees: one row, absent until an admin saves."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.core.db import Base
from portal.core.models.types import UTCDateTime


class PartnerBranding(Base):
    """The partner's display name, logo, accent colour and email sender name (row id 1).

    The logo is kept in the database, not the document store: it is small (the settings page
    caps it), public, and every host serves the same one without moving files.
    """

    __tablename__ = "partner_branding"

    id: Mapped[int] = mapped_column(primary_key=True)
    display_name: Mapped[str] = mapped_column(String(80), default="")
    sender_name: Mapped[str] = mapped_column(String(80), default="")
    #: ``#rrggbb``, lower-case; empty: the portal's own blue.
    accent_colour: Mapped[str] = mapped_column(String(7), default="")
    logo: Mapped[bytes | None] = mapped_column(LargeBinary)
    logo_type: Mapped[str] = mapped_column(String(32), default="")
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_by: Mapped[str] = mapped_column(String(254))
