"""gunicorn's own logs (the access log and its error log) through the portal's redaction, in
the format LOG_FORMAT names.

gunicorn writes them with handlers of its own that do not reach the root logger, so the
redaction the app installs there never sees a request line such as
``GET /verify/7?token=...`` or its Referer. ``gunicorn.conf.py`` names this class.
"""

from __future__ import annotations

import os

from gunicorn.config import Config
from gunicorn.glogging import Logger

from portal.features.monitoring.logs import install_log_format
from portal.gateway.tracing import REQUEST_ID_HEADER, request_id


class RedactingLogger(Logger):
    """gunicorn's logger with every handler of its access and error logs redacting, and each
    access line carrying the request id the portal answered with."""

    def setup(self, cfg: Config) -> None:
        """Set up gunicorn's handlers (also on a reload), then add the redaction to each."""
        super().setup(cfg)
        log_format = os.environ.get("LOG_FORMAT", "text").strip().lower()
        for logger in (self.error_log, self.access_log):
            install_log_format(logger, log_format)

    def access(self, resp, req, environ, request_time) -> None:
        """Log the request with the id from its X-Request-ID answer header as the current id."""
        header = REQUEST_ID_HEADER.lower()
        answered = next((value for name, value in resp.headers if name.lower() == header), "")
        token = request_id.set(answered)
        try:
            super().access(resp, req, environ, request_time)
        finally:
            request_id.reset(token)
