"""The main navigation: which sections a signed-in user sees, by role."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import request, url_for
from flask_login import current_user
from sqlalchemy.exc import SQLAlchemyError

from portal.auth.roles import STAFF
from portal.core.config import current_settings
from portal.core.models import Role
from portal.payments.approvals.queries import waiting_for


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


def _approvals_waiting() -> int:
    """The admin's count of approvals waiting; 0 when the database cannot say, so that a
    count never breaks a page (an error page among them)."""
    try:
        return waiting_for(current_user.id)
    except SQLAlchemyError:
        return 0


SECTIONS = (
    Section("Merchants", "merchants.index", "/merchants"),
    Section("Payments", "payments.index", "/payments"),
    Section("Dashboard", "admin.dashboard", "/admin", (Role.ADMIN,)),
    Section("Bulk import", "bulk.index", "/admin/bulk", (Role.ADMIN,)),
    Section("Team", "team.index", "/admin/team", (Role.ADMIN,)),
    Section("Emails", "merchant_mail.index", "/admin/emails", (Role.ADMIN,)),
    Section("Approvals", "approvals.index", "/approvals", (Role.ADMIN,), _approvals_waiting),
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
