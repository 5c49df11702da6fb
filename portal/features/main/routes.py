"""The home page (signed-in users land on their home) and the browser's /favicon.ico."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, send_from_directory
from flask.typing import ResponseReturnValue

from portal.features.main.navigation import nav_links
from portal.web.auth.access import public
from portal.web.auth.home import home_url

bp = Blueprint("main", __name__)
bp.add_app_template_global(nav_links)
bp.add_app_template_global(home_url)


@bp.get("/")
def index() -> ResponseReturnValue:
    """Send signed-in users home (the app-wide guard sends everyone else to sign in)."""
    return redirect(home_url())


@bp.get("/favicon.ico")
@public
def favicon() -> ResponseReturnValue:
    """The portal's icon where every browser looks for it first (``static/favicon.ico``)."""
    return send_from_directory(current_app.static_folder or "static", "favicon.ico",
                               mimetype="image/vnd.microsoft.icon", max_age=86400)
