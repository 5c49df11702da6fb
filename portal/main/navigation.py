"""The main navigation: which sections a signed-in user sees, by role."""

from __future__ import annotations

from dataclasses import dataclass

from flask import request, url_for
from flask_login import current_user

from portal.auth.roles import STAFF
from portal.models import Role


@dataclass(frozen=True)
class Section:
    """One entry of the main navigation."""

    label: str
    endpoint: str
    prefix: str
    roles: tuple[str, ...] = STAFF


SECTIONS = (
    Section("Merchants", "merchants.index", "/merchants"),
    Section("Payments", "payments.index", "/payments"),
    Section("Dashboard", "admin.dashboard", "/admin", (Role.ADMIN,)),
    Section("Bulk import", "bulk.index", "/admin/bulk", (Role.ADMIN,)),
    Section("Team", "team.index", "/admin/team", (Role.ADMIN,)),
    Section("Emails", "merchant_mail.index", "/admin/emails", (Role.ADMIN,)),
)


@dataclass(frozen=True)
class NavLink:
    """A rendered navigation link."""

    label: str
    url: str
    current: bool


def nav_links() -> list[NavLink]:
    """The sections the current user may open, the one being viewed marked current."""
    path = request.path
    visible = [s for s in SECTIONS if current_user.has_role(*s.roles)]
    # the longest matching prefix wins, so /admin/bulk is not also "Dashboard"
    current = max((s for s in visible if path.startswith(s.prefix)),
                  key=lambda s: len(s.prefix), default=None)
    return [NavLink(s.label, url_for(s.endpoint), s is current) for s in visible]
