"""Where signed-in users land (the merchants list): sign-in sends them there, and so does
the portal's root."""

from __future__ import annotations

from flask import current_app, url_for

HOME_ENDPOINT = "merchants.index"
HOME_PATH = "/merchants"


def home_url() -> str:
    """The merchants list, the portal's home (its path until that blueprint is registered)."""
    if HOME_ENDPOINT in current_app.view_functions:
        return url_for(HOME_ENDPOINT)
    return HOME_PATH
