"""gunicorn's own logs (the access log and its error log) through the portal's redaction.

gunicorn writes them with handlers of its own that do not reach the root logger, so the
redaction the app installs there never sees a request line such as
``GET /verify/7?token=...`` or its Referer. ``gunicorn.conf.py`` names this class.
"""

from __future__ import annotations

from gunicorn.config import Config
from gunicorn.glogging import Logger

from portal.logging_filters import install_redaction


class RedactingLogger(Logger):
    """gunicorn's logger with every handler of its access and error logs redacting."""

    def setup(self, cfg: Config) -> None:
        """Set up gunicorn's handlers (also on a reload), then add the redaction to each."""
        super().setup(cfg)
        for logger in (self.error_log, self.access_log):
            install_redaction(logger)
