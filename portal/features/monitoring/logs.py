"""Log lines an operator can search: with LOG_FORMAT=json one JSON object per line, each with
the request id, the signed-in user and the merchant the request concerns, where known.

The redaction (``portal.core.logging_filters``) runs before the formatter, so the JSON carries the
masked message and traceback only.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

from flask import g, has_request_context, request
from sqlalchemy import inspect

from portal.core.config import Settings
from portal.core.logging_filters import install_redaction
from portal.gateway.tracing import request_id

TEXT_FORMAT = "%(asctime)s %(name)s %(message)s"


class RequestContextFilter(logging.Filter):
    """Adds ``request_id``, ``user_id`` and ``merchant_id`` to each record (None if unknown)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Annotate the record; never drops one."""
        record.request_id = request_id.get() or None
        record.user_id = record.merchant_id = None
        if has_request_context():
            record.user_id = _signed_in_user_id()
            record.merchant_id = (request.view_args or {}).get("merchant_id")
        return True


def _signed_in_user_id() -> int | None:
    """The id of the user flask-login loaded for this request, read from the row's identity:
    logging never touches the database (a record may be logged from a failed transaction)."""
    state = inspect(g.get("_login_user"), raiseerr=False)
    return state.identity[0] if state is not None and state.identity else None


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, request id, user id, merchant id and
    message (and the traceback, when there is one)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "request_id": getattr(record, "request_id", None),
            "user_id": getattr(record, "user_id", None),
            "merchant_id": getattr(record, "merchant_id", None),
            "message": record.getMessage(),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False, default=str)


def install_log_format(logger: logging.Logger, log_format: str) -> None:
    """Give every handler of ``logger`` the request context and the formatter, and redaction."""
    for handler in logger.handlers:
        if not any(isinstance(f, RequestContextFilter) for f in handler.filters):
            handler.addFilter(RequestContextFilter())
        if log_format == "json":
            handler.setFormatter(JsonFormatter())
    install_redaction(logger)


def configure_logging(settings: Settings) -> None:
    """The root logger at INFO, in the format LOG_FORMAT names, redacted."""
    logging.basicConfig(level=logging.INFO, format=TEXT_FORMAT)
    install_log_format(logging.getLogger(), settings.log_format)
