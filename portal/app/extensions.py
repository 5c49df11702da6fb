"""Flask extensions bound to each app by ``register_extensions``: CSRF protection
(:mod:`portal.web.csrf`) and the sign-in sessions."""

from __future__ import annotations

from flask import Flask

from portal.web.auth.sessions import init_sessions
from portal.web.csrf import csrf


def register_extensions(app: Flask) -> None:
    """Bind CSRF protection, sign-in sessions and the deny-by-default guard to ``app``."""
    csrf.init_app(app)
    init_sessions(app)
