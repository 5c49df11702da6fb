"""The branding in force (the defaults until an admin saves some), and saving it, audited."""

from __future__ import annotations

from dataclasses import dataclass

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.branding import PartnerBranding
from portal.domain.audit.service import Actor, record
from portal.domain.branding.contrast import darker

#: The portal's own blue (static/css/portal.css, ``--brand``): the accent with nothing set.
DEFAULT_ACCENT = "#1f4fbf"
ROW_ID = 1


@dataclass(frozen=True)
class Branding:
    """What a merchant's page and email carry of the partner."""

    display_name: str
    sender_name: str
    accent: str
    has_logo: bool = False
    #: Changes when the logo does, so a browser never shows the previous one.
    logo_version: str = ""

    @property
    def accent_dark(self) -> str:
        """The accent's hover shade."""
        return darker(self.accent)


def _row() -> PartnerBranding | None:
    return db.session.get(PartnerBranding, ROW_ID)


def current(settings: Settings) -> Branding:
    """The branding in force: the saved one, each empty part filled from the defaults
    (PARTNER_NAME for both names, the portal's blue)."""
    row = _row()
    name = (row.display_name if row else "") or settings.partner_name
    return Branding(
        display_name=name, sender_name=(row.sender_name if row else "") or name,
        accent=(row.accent_colour if row else "") or DEFAULT_ACCENT,
        has_logo=bool(row and row.logo),
        logo_version=f"{row.updated_at:%Y%m%d%H%M%S}" if row and row.logo else "")


def saved() -> PartnerBranding | None:
    """The saved row, for the settings page to show what an admin typed (None: nothing)."""
    return _row()


def logo() -> tuple[bytes, str] | None:
    """The logo's bytes and content type, or None when none was uploaded."""
    row = _row()
    return (row.logo, row.logo_type) if row and row.logo else None


@dataclass(frozen=True)
class BrandingChange:
    """What an admin saves; ``logo`` None keeps the current logo, ``remove_logo`` drops it."""

    display_name: str
    sender_name: str
    accent_colour: str
    logo: bytes | None = None
    logo_type: str = ""
    remove_logo: bool = False


def save(change: BrandingChange, actor: Actor) -> None:
    """Store the branding and audit what changed (never the logo's bytes); commits."""
    row = _row()
    if row is None:
        row = PartnerBranding(id=ROW_ID, logo=None, logo_type="")
        db.session.add(row)
    changed = [name for name in ("display_name", "sender_name", "accent_colour")
               if getattr(row, name, "") != getattr(change, name)]
    row.display_name, row.sender_name = change.display_name, change.sender_name
    row.accent_colour = change.accent_colour
    if change.logo is not None:
        row.logo, row.logo_type = change.logo, change.logo_type
        changed.append("logo")
    elif change.remove_logo and row.logo:
        row.logo, row.logo_type = None, ""
        changed.append("logo removed")
    row.updated_at, row.updated_by = clock.utcnow(), actor.label
    record("branding.update", actor=actor, detail={"changed": changed})
    db.session.commit()
