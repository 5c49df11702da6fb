"""Request helpers shared by features."""

from __future__ import annotations

from flask import request


def wants_json() -> bool:
    """True when the client prefers JSON to HTML (API calls, fetch())."""
    if request.is_json:
        return True
    return request.accept_mimetypes.best_match(["text/html", "application/json"]) == (
        "application/json")
