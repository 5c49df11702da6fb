"""Absolute portal URLs for emails, built on PORTAL_URL rather than the request's Host header.

A reset link built from the Host header could point a victim at an attacker's server; and
reminders are sent from ``flask sync``, where there is no request at all.
"""

from __future__ import annotations

from typing import Any

from flask import current_app

from portal.core.config import current_settings


def absolute_url(endpoint: str, **values: Any) -> str:
    """``endpoint``'s URL under the configured PORTAL_URL (works without a request)."""
    adapter = current_app.url_map.bind("portal.invalid")
    return current_settings().portal_url + adapter.build(endpoint, values)
