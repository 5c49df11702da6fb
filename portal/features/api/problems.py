"""Errors in one shape: RFC 9457 problem details, with each field's error at its gateway path.

A field's path is the one the gateway's ``errorDetails`` and the portal's forms use
(``paymentData.totalAmount``, ``[1].pan``), so a partner's software puts the message beside the
same field the portal's own page would.
"""

from __future__ import annotations

from flask import Response, json

from portal.gateway.shapes import FieldError

MEDIA_TYPE = "application/problem+json"
#: Each status's title, the problem's short summary.
TITLES = {
    400: "The request could not be read",
    401: "No valid API key",
    403: "This key may not do that",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "The request is too large",
    415: "The body must be JSON",
    422: "The request was refused",
    429: "Too many requests",
    502: "The gateway could not be reached",
    503: "Not available now",
}


class Problem(Exception):
    """An answer of ``status`` with ``detail`` in words and the fields' ``errors``."""

    def __init__(self, status: int, detail: str, errors: list[FieldError] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.errors = errors or []
        self.headers = headers or {}

    def body(self) -> dict[str, object]:
        """The problem document."""
        found: dict[str, object] = {"type": "about:blank",
                                    "title": TITLES.get(self.status, "Error"),
                                    "status": self.status, "detail": self.detail}
        if self.errors:
            found["errors"] = [error.as_json() for error in self.errors]
        return found


def problem_response(problem: Problem) -> Response:
    """``problem`` as an HTTP answer."""
    answer = Response(json.dumps(problem.body()), status=problem.status, mimetype=MEDIA_TYPE)
    answer.headers.update(problem.headers)
    return answer
