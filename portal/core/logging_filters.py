"""Log redaction: no PAN, account number, key, token or email address reaches a log line."""

from __future__ import annotations

import logging

from portal.core.redaction import redact_log_text


class RedactingFilter(logging.Filter):
    """Rewrites each record's message (and exception text) with sensitive values masked."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Mask the formatted message in place; never drops a record."""
        record.msg = redact_log_text(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact_log_text(record.exc_text)
        return True


def install_redaction(logger: logging.Logger | None = None) -> None:
    """Add a RedactingFilter to every handler of ``logger`` (default: root), once."""
    for handler in (logger or logging.getLogger()).handlers:
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(RedactingFilter())
