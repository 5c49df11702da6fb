"""The envelopes the sandbox answers in, as the gateway builds them: a fresh gid, the
timestamp, the ``reasonCode``, the data; a refusal with its ``errorDetails`` (and, for the
payments API, the real gateway's ``errors{displayMessage, detailedMessage}``). The client reads
them with the shared shapes (:class:`portal.gateway.shapes.Envelope`)."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from portal.gateway.shapes import ErrorMessages, FieldError

TIMESTAMP_FORMAT = "%d/%m/%Y %H:%M:%S"
#: The ``status`` of an answer to a request the gateway refused.
REQUEST_ERROR = "REQUEST_ERROR"


def new_gid(prefix: str = "gl-") -> str:
    """A fresh envelope identifier."""
    return prefix + secrets.token_hex(12)


def envelope(
    data: Any,
    *,
    now: datetime,
    reason_code: str = "",
    gid: str | None = None,
    errors: list[FieldError] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Build the JSON envelope the gateway answers with."""
    body: dict[str, Any] = {
        "gid": gid or new_gid(),
        "timestamp": now.strftime(TIMESTAMP_FORMAT),
        "reasonCode": reason_code,
        **extra,
        "data": data if data is not None else {},
        "errors": None,
    }
    if errors is not None:
        body["errorDetails"] = [e.as_json() for e in errors]
        body["errors"] = {"count": len(errors)}
    return body


def error_messages(display: str, field_errors: list[FieldError]) -> dict[str, str]:
    """``errors`` for a refusal: what to show a person, and every field's problem in detail."""
    detail = "; ".join(f"{e.field}: {e.message}" if e.field else e.message for e in field_errors)
    return ErrorMessages(displayMessage=display, detailedMessage=detail or display).model_dump()


def error_envelope(reason_code: str, message: str, field_errors: list[FieldError], *,
                   now: datetime) -> dict[str, Any]:
    """A refused payments call as the real gateway answers it (``status``, ``message``,
    ``errors{displayMessage, detailedMessage}``), with ``errorDetails`` beside it for field
    mapping (the contract's revision 2: the PHP SDK's and Magento's recorded refusals)."""
    body = envelope(None, now=now, reason_code=reason_code, errors=field_errors,
                    status=REQUEST_ERROR, message=message)
    body["errors"] = error_messages(message, field_errors)
    return body
