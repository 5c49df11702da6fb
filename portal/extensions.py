"""Flask extensions, created once here and bound to each app by ``register_extensions``."""

from __future__ import annotations

from flask import Flask
from flask_wtf import CSRFProtect

from portal.auth.sessions import init_sessions

#: Every POST needs a CSRF token; views that take foreign POSTs (webhooks) use ``@csrf.exempt``.
csrf = CSRFProtect()


def register_extensions(app: Flask) -> None:
    """Bind CSRF protection, sign-in sessions and the deny-by-default guard to ``app``."""
    csrf.init_app(app)
    init_sessions(app)
