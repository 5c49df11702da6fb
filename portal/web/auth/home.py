"""Where signed-in users land: ops on "Needs my action" (their work for today), admins on the
merchants list; sign-in sends them there, and so does the portal's root."""

from __future__ import annotations

from flask import current_app, url_for
from flask_login import current_user

from portal.core.models.user import Role

HOME_ENDPOINT = "merchants.index"
HOME_PATH = "/merchants"
#: The home of ops: what the merchants they own need now.
OPS_HOME_ENDPOINT = "worklist.index"


def home_url() -> str:
    """The signed-in user's home (the merchants list's path until the blueprints are
    registered)."""
    ops = current_user.is_authenticated and not current_user.has_role(Role.ADMIN)
    endpoint = OPS_HOME_ENDPOINT if ops else HOME_ENDPOINT
    if endpoint in current_app.view_functions:
        return url_for(endpoint)
    return HOME_PATH
