"""WSGI entry point: ``flask --app app ...`` and ``gunicorn app:app``."""

from portal.config import ConfigError
from portal.factory import create_app

try:
    app = create_app()
except ConfigError as exc:  # one line that names the variable, not a traceback
    raise SystemExit(f"Configuration error: {exc}") from None
