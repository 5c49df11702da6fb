"""The home page: signed-in users land on the merchants list."""

from __future__ import annotations

from flask import Blueprint, redirect
from flask.typing import ResponseReturnValue

from portal.features.main.navigation import nav_links
from portal.web.auth.home import home_url

bp = Blueprint("main", __name__)
bp.add_app_template_global(nav_links)
bp.add_app_template_global(home_url)


@bp.get("/")
def index() -> ResponseReturnValue:
    """Send signed-in users home (the app-wide guard sends everyone else to sign in)."""
    return redirect(home_url())
