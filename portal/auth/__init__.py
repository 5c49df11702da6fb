"""Accounts, sign-in and access control.

Other features import ``login_required``, ``roles_required`` and ``public`` from here.
"""

from portal.auth import enrolment_routes  # noqa: F401  (adds the authenticator page to bp)
from portal.auth.access import login_required, public, roles_required
from portal.auth.routes import bp

__all__ = ["bp", "login_required", "public", "roles_required"]
