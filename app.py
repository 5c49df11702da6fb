"""WSGI entry point: ``flask --app app ...`` and ``gunicorn app:app``."""

import sys

from portal.app.factory import create_app
from portal.app.unconfigured import loaded_by_flask_command, unconfigured_app
from portal.core.config import ConfigError
from portal.core.startup import BOOT_ERROR, refusal

try:
    app = create_app()
except ConfigError as exc:
    if not loaded_by_flask_command():  # one line that names the variable, not a traceback
        print(refusal(exc), file=sys.stderr)
        # gunicorn's master stops on this status instead of booting another worker (its own
        # check in gunicorn.conf.py normally stops it before any worker boots)
        raise SystemExit(BOOT_ERROR) from None
    # `flask ... --help` works unconfigured; running a command prints the same line
    app = unconfigured_app(exc)
