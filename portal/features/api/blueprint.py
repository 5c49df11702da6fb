"""The API's blueprint, which each resource's routes add themselves to."""

from __future__ import annotations

from flask import Blueprint

from portal.web.csrf import csrf

#: Every route under /api/v1: key-authenticated, so no session and no CSRF token.
bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)
