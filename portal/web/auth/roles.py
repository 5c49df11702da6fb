"""Role groups: who may reach which pages, named once for every feature."""

from __future__ import annotations

from portal.core.models.user import Role

#: Who may onboard merchants and take payments.
STAFF = (Role.OPS, Role.ADMIN)
