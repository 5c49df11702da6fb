"""The home page: signed-in users land on the merchants list."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, url_for
from flask.typing import ResponseReturnValue

from portal.main.navigation import nav_links

bp = Blueprint("main", __name__)
bp.add_app_template_global(nav_links)

HOME_ENDPOINT = "merchants.index"
HOME_PATH = "/merchants"


@bp.app_template_global()
def home_url() -> str:
    """The merchants list, the portal's home (its path until that blueprint is registered)."""
    if HOME_ENDPOINT in current_app.view_functions:
        return url_for(HOME_ENDPOINT)
    return HOME_PATH


@bp.get("/")
def index() -> ResponseReturnValue:
    """Send signed-in users home (the app-wide guard sends everyone else to sign in)."""
    return redirect(home_url())
