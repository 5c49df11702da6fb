"""One exception hierarchy for both gateway clients.

Every error carries the HTTP status, reasonCode, gid, parsed body and the gateway's
``errors.displayMessage``; ``str()`` names them and never includes a secret, a token or a request
body.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from portal.gateway.shapes import Envelope, ErrorDetail, FieldError, display_message


class GatewayError(Exception):
    """Base of every error a gateway call raises.

    ``display_message`` is the gateway's own words for a person (``errors.displayMessage``), ""
    when it sent none. ``outcome_unknown`` is set when the request may have been applied, so the
    caller must reconcile, not resend.
    """

    outcome_unknown: bool = False

    def __init__(
        self,
        message: str,
        *,
        http_status: int | None = None,
        reason_code: str = "",
        gid: str = "",
        body: Any = None,
        display_message: str = "",
    ) -> None:
        super().__init__(message)
        self.message = message
        self.http_status = http_status
        self.reason_code = reason_code
        self.gid = gid
        self.body = body
        self.display_message = display_message

    def __str__(self) -> str:
        parts = [self.message]
        if self.http_status is not None:
            parts.append(f"HTTP {self.http_status}")
        if self.reason_code:
            parts.append(f"reasonCode={self.reason_code}")
        if self.gid:
            parts.append(f"gid={self.gid}")
        return " | ".join(parts)


class ValidationFailed(GatewayError):
    """400: the gateway (or our own pre-send check) refused fields; see ``field_errors``."""

    def __init__(self, message: str, *, field_errors: list[FieldError], **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.field_errors = field_errors

    def __str__(self) -> str:
        fields = ", ".join(e.field or "(request)" for e in self.field_errors)
        return f"{super().__str__()} | fields: {fields}" if fields else super().__str__()


class Unauthorized(GatewayError):
    """401: missing or wrong credentials or signature."""


class Forbidden(GatewayError):
    """403: the record belongs to another partner."""


class NotFound(GatewayError):
    """No such record, in any of the gateway's dialects: HTTP 404, HTTP 400 with reasonCode
    GL-400-999, or a 2xx whose status is NOT_FOUND (docs/gateway-contract.md, "Reading answers")."""


class Conflict(GatewayError):
    """409: the operation clashes with the record's state (second capture, over-refund)."""


class Declined(GatewayError):
    """A 2xx answer that says no (a failure status word or a decline reasonCode): the action
    did not happen; ``display_message`` says why in the gateway's words."""


class MayAlreadyExist(GatewayError):
    """400 naming our merchantTxnId or merchantUniqueId a duplicate: the gateway has a payment
    (or refund) under it already, perhaps from the attempt whose answer was lost. Never a
    refusal: a status read by the merchantUniqueId decides (docs/gateway-contract.md, rev. 4,
    "Idempotency")."""

    outcome_unknown = True


class UnexpectedAnswer(GatewayError):
    """A 2xx answer we cannot read: the gateway took the request, so its outcome is unknown."""

    outcome_unknown = True


class GatewayUnavailable(GatewayError):
    """5xx, 429 (too many requests), timeout or lost connection.

    ``outcome_unknown`` is set when the call was not safe to repeat and the connection broke
    after sending it (or a 5xx answered it). ``retry_after`` is the seconds a 429 or 503 asked
    the client to wait (``Retry-After``), None when it named none.
    """

    def __init__(self, message: str, *, outcome_unknown: bool = False,
                 retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.outcome_unknown = outcome_unknown
        self.retry_after = retry_after

    def __str__(self) -> str:
        text = super().__str__()
        return f"{text} | outcome unknown" if self.outcome_unknown else text


#: reasonCode of "transaction not found" on a 400 (docs/gateway-facts.md D, standalone-capture.mdx).
NOT_FOUND_REASON = "GL-400-999"
#: HTTP statuses that mean "too busy now, ask again later": never a refusal.
TOO_MANY_REQUESTS = 429

_BY_STATUS: dict[int, tuple[type[GatewayError], str]] = {
    401: (Unauthorized, "the gateway refused our credentials"),
    403: (Forbidden, "the record belongs to another partner"),
    404: (NotFound, "no such record"),
    409: (Conflict, "the record's state does not allow this"),
}


def error_for_response(status: int, body: Any, operation: str,
                       retry_after: float | None = None) -> GatewayError:
    """Map a non-2xx answer onto the hierarchy; ``retry_after`` is its Retry-After, if any."""
    parsed = _envelope(body)
    common: dict[str, Any] = {
        "http_status": status,
        "reason_code": parsed.reasonCode,
        "gid": parsed.gid,
        "body": body,
        "display_message": display_message(parsed.errors),
    }
    if status >= 500:
        return GatewayUnavailable(f"{operation}: the gateway failed", retry_after=retry_after,
                                  **common)
    if status == TOO_MANY_REQUESTS:
        return GatewayUnavailable(f"{operation}: the gateway asked us to slow down",
                                  retry_after=retry_after, **common)
    if status == 400 and parsed.reasonCode == NOT_FOUND_REASON:
        return NotFound(f"{operation}: no such record", **common)
    if status in (400, 422):
        field_errors = [FieldError(d.path, d.message) for d in parsed.errorDetails]
        return ValidationFailed(f"{operation}: the gateway refused the request",
                                field_errors=field_errors, **common)
    kind, text = _BY_STATUS.get(status, (GatewayError, "unexpected answer"))
    return kind(f"{operation}: {text}", **common)


def _envelope(body: Any) -> Envelope:
    """Parse an error body leniently: a malformed one (``errorDetails: null``) still maps."""
    if not isinstance(body, dict):
        return Envelope()
    try:
        return Envelope.model_validate(body)
    except ValidationError:
        pass
    details = body.get("errorDetails")
    entries = [
        ErrorDetail(
            field=_text(d.get("field")) or None,
            fieldName=_text(d.get("fieldName")) or None,
            message=_text(d.get("message")),
        )
        for d in (details if isinstance(details, list) else [])
        if isinstance(d, dict)
    ]
    return Envelope(
        gid=_text(body.get("gid")), reasonCode=_text(body.get("reasonCode")),
        errors=body.get("errors"), errorDetails=entries,
    )


def _text(value: Any) -> str:
    return "" if value is None else str(value)
