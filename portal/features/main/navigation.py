"""The main navigation: which sections a signed-in user sees, by role."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import g, request, url_for
from flask_login import current_user
from sqlalchemy.exc import SQLAlchemyError

from portal.core import clock
from portal.core.config import current_settings
from portal.core.models import Role
from portal.domain.worklist.service import NavCounts, nav_counts
from portal.web.auth.roles import STAFF


@dataclass(frozen=True)
class Section:
    """One entry of the main navigation."""

    label: str
    endpoint: str
    prefix: str
    roles: tuple[str, ...] = STAFF
    #: How many things wait for the user there, shown beside the label (None: no count).
    count: Callable[[], int] | None = None
    #: Whether the section exists at all now (None: always).
    shown: Callable[[], bool] | None = None


def _mine() -> NavCounts:
    """The user's items, unread notices and (an admin's) approvals waiting: one statement per
    request; zeros when the database cannot say, so that a count never breaks a page (an
    error page among them)."""
    if "nav_counts" not in g:
        try:
            g.nav_counts = nav_counts(current_user, current_settings(), clock.utcnow())
        except SQLAlchemyError:
            g.nav_counts = NavCounts(0, 0)
    return g.nav_counts


def _needs_action() -> int:
    """What "Needs my action" lists: the items, and an admin's approvals and payments to set
    up."""
    return _mine().needs_action + _mine().approvals + _mine().setups


def _unread_notices() -> int:
    return _mine().unread


def _approvals_waiting() -> int:
    return _mine().approvals


SECTIONS = (
    Section("Needs my action", "worklist.index", "/worklist", count=_needs_action),
    Section("Merchants", "merchants.index", "/merchants"),
    Section("Payments", "payments.index", "/payments"),
    Section("Notices", "notifications.index", "/notices", count=_unread_notices),
    Section("Dashboard", "admin.dashboard", "/admin", (Role.ADMIN,)),
    Section("Bulk import", "bulk.index", "/admin/bulk", (Role.ADMIN,)),
    Section("Team", "team.index", "/admin/team", (Role.ADMIN,)),
    Section("Emails", "merchant_mail.index", "/admin/emails", (Role.ADMIN,)),
    Section("Branding", "branding.settings", "/admin/branding", (Role.ADMIN,)),
    Section("Approvals", "approvals.index", "/approvals", (Role.ADMIN,), _approvals_waiting),
    Section("API keys", "api_keys.index", "/admin/api-keys", (Role.ADMIN,)),
    Section("Webhooks out", "partner_webhooks.index", "/admin/webhooks-out", (Role.ADMIN,)),
    # development only: what the local SMTP sink received (its own entry, not the Dashboard's)
    Section("Mailbox", "mail.mailbox", "/admin/mailbox", (Role.ADMIN,),
            shown=lambda: current_settings().gateway_is_sandbox),
)


@dataclass(frozen=True)
class NavLink:
    """A rendered navigation link."""

    label: str
    url: str
    current: bool
    count: int = 0


def nav_links() -> list[NavLink]:
    """The sections the current user may open, the one being viewed marked current."""
    path = request.path
    visible = [s for s in SECTIONS if current_user.has_role(*s.roles)
               and (s.shown is None or s.shown())]
    # the longest matching prefix wins, so /admin/bulk is not also "Dashboard"
    current = max((s for s in visible if path.startswith(s.prefix)),
                  key=lambda s: len(s.prefix), default=None)
    return [NavLink(s.label, url_for(s.endpoint), s is current, s.count() if s.count else 0)
            for s in visible]
