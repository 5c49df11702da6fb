"""Errors the sandbox answers with, as the gateway's envelope."""

from __future__ import annotations

from portal.gateway.errors import NOT_FOUND_REASON
from portal.gateway.shapes import FieldError

#: reasonCodes of the payments API's own refusals (docs/gateway-facts.md B8); field errors and
#: authentication keep spec 000 section 7's VALIDATION_ERROR and UNAUTHORIZED.
INVALID_DATA = "GL-400-002"
AMOUNT_MISMATCH = "GL-400-006"
NOT_FOUND = NOT_FOUND_REASON


class ApiError(Exception):
    """An error answer: HTTP status, reasonCode, message and optional field errors."""

    def __init__(self, status: int, reason_code: str, message: str,
                 field_errors: list[FieldError] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.reason_code = reason_code
        self.message = message
        self.field_errors = field_errors


class DuplicateId(ApiError):
    """400: an initiate's merchantTxnId was used before (auth-capture-authorise.mdx); answered
    in the docs' dialect as the openapi slice writes a 400 (``errorDetails[{fieldName}]``)."""

    FIELD = "merchantTxnId"
    MESSAGE = "Duplicate merchantTxnId"

    def __init__(self) -> None:
        super().__init__(400, "VALIDATION_ERROR", self.MESSAGE,
                         [FieldError(self.FIELD, self.MESSAGE)])


def validation_error(field_errors: list[FieldError]) -> ApiError:
    """400 VALIDATION_ERROR with one errorDetails entry per offending field."""
    return ApiError(400, "VALIDATION_ERROR", "Validation failed", field_errors)


def unauthorized(message: str = "Authentication failed") -> ApiError:
    """401 UNAUTHORIZED."""
    return ApiError(401, "UNAUTHORIZED", message)


def forbidden(message: str = "This record belongs to another partner") -> ApiError:
    """403: the record (or the MID in the path) belongs to another partner."""
    return ApiError(403, "FORBIDDEN", message)


def not_found(message: str = "No such record") -> ApiError:
    """404 NOT_FOUND."""
    return ApiError(404, "NOT_FOUND", message)
