"""The payments API's answers, judged by their content (docs/gateway-contract.md, "Reading
answers").

The clients SEND the contract's one shape and READ every shape a source shows; an answer is
judged by what it says, never by its HTTP code alone. Every 2xx answer of the payments API
passes through this module on its way to the portal's one typed answer (the onboarding API's
through :mod:`portal.gateway.onboarding_reading`).

An action's 2xx answer (initiate, capture, reversal, refund) is:
- DONE when a status word in it (envelope ``status``, ``data.status``, ``data.refundStatus``)
  is one the action is known to produce;
- REFUSED when a status word is a failure word or its reasonCode a decline
  (GL-201-006..023, GL-201-500): nothing happened, and the gateway's words say why;
- NOT FOUND when its status is NOT_FOUND;
- UNKNOWN otherwise (an unknown word, a body we cannot read): the gateway took the request,
  so the action may or may not have happened, and is settled by a status read of its own
  merchantTxnId.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import StrEnum
from typing import Any, TypeVar

from pydantic import ValidationError

from portal.gateway.errors import Declined, GatewayError, NotFound, UnexpectedAnswer
from portal.gateway.payments_shapes import CallbackClaims, StatusResponse
from portal.gateway.shapes import Envelope, display_message
from portal.gateway.transport import Reply

Answer = TypeVar("Answer", bound=Envelope)


class Verdict(StrEnum):
    """What an action's 2xx answer says happened."""

    DONE = "done"
    REFUSED = "refused"
    NOT_FOUND = "not found"
    UNKNOWN = "unknown"


#: The status words each action is known to produce when it was done.
SUCCESS_WORDS: dict[str, frozenset[str]] = {
    "initiate": frozenset({"INPROGRESS", "CREATED"}),
    "capture": frozenset({"SENT_FOR_CAPTURE", "CAPTURE_STARTED"}),
    "auth_reversal": frozenset({"REVERSED"}),
    "refund": frozenset({"SENT_FOR_REFUND", "REFUND_STARTED", "INITIATED"}),
}
#: Status words that say the action was not done, whatever the HTTP code.
FAILURE_WORDS = frozenset({"REQUEST_ERROR", "SYSTEM_ERROR", "ISSUER_DECLINE", "DECLINED",
                           "FAILED"})
NOT_FOUND_WORD = "NOT_FOUND"
#: The docs' refund answer: ``status: SUCCESS`` means done only with ``code: GC000``.
SUCCESS_WORD = "SUCCESS"
SUCCESS_CODE = "GC000"
#: Decline reasonCodes of the "HTTP 201" group (response-codes.mdx): GL-201-006 to
#: GL-201-023, and GL-201-500 (declined by the system).
_DECLINE = re.compile(r"GL-201-(0(0[6-9]|1[0-9]|2[0-3])|500)")
#: The status words an initiate answer may lack altogether: only gid and redirectUrl are required
#: (docs/gateway-contract.md, "Reading answers"), so an answer with neither word nor failure is
#: done.
_WORDLESS_DONE = frozenset({"initiate"})


def is_decline(reason_code: str) -> bool:
    """Whether a reasonCode is one of the documented declines."""
    return _DECLINE.fullmatch(reason_code.strip()) is not None


def _data(body: dict[str, Any]) -> dict[str, Any]:
    data = body.get("data")
    return data if isinstance(data, dict) else {}


def status_words(body: dict[str, Any]) -> list[str]:
    """The status words an answer carries (envelope ``status``, ``data.status``,
    ``data.refundStatus``), upper case."""
    data = _data(body)
    found = (body.get("status"), data.get("status"), data.get("refundStatus"))
    return [word.strip().upper() for word in found if isinstance(word, str) and word.strip()]


def reason_code(body: dict[str, Any]) -> str:
    """The answer's reasonCode: the envelope's, else ``data.reasonCode``."""
    return str(body.get("reasonCode") or _data(body).get("reasonCode") or "").strip()


def judge(operation: str, body: Any) -> Verdict:
    """What ``operation``'s 2xx answer ``body`` says happened."""
    if not isinstance(body, dict):
        return Verdict.UNKNOWN
    words = status_words(body)
    if NOT_FOUND_WORD in words:
        return Verdict.NOT_FOUND
    if FAILURE_WORDS.intersection(words) or is_decline(reason_code(body)):
        return Verdict.REFUSED
    if SUCCESS_WORDS[operation].intersection(words):
        return Verdict.DONE
    if operation == "refund" and SUCCESS_WORD in words and body.get("code") == SUCCESS_CODE:
        return Verdict.DONE
    if operation in _WORDLESS_DONE and not words:
        return Verdict.DONE
    return Verdict.UNKNOWN


def refusal_words(body: Any) -> str:
    """What the gateway said to a person about a refusal: ``errors.displayMessage``, else
    ``errors.detailedMessage``, else its ``message``; "" when it said nothing."""
    if not isinstance(body, dict):
        return ""
    errors = body.get("errors")
    detailed = errors.get("detailedMessage") if isinstance(errors, dict) else None
    for text in (display_message(errors), detailed, body.get("message"),
                 _data(body).get("detailedMessage")):
        if isinstance(text, str) and text.strip():
            return text.strip()
    return ""


def _gid(body: Any) -> str:
    if not isinstance(body, dict):
        return ""
    return str(body.get("gid") or _data(body).get("gid") or "")


def action_reader(operation: str, shape: type[Answer]) -> Callable[[Reply], Answer]:
    """How to read ``operation``'s 2xx reply: the typed answer when done, else the error
    that says what happened (:class:`Declined`, :class:`NotFound`, :class:`UnexpectedAnswer`)."""

    def read(reply: Reply) -> Answer:
        body = reply.body
        common: dict[str, Any] = {"http_status": reply.status, "gid": _gid(body), "body": body,
                                  "reason_code": reason_code(body) if isinstance(body, dict)
                                  else ""}
        verdict = judge(operation, body)
        if verdict is Verdict.REFUSED:
            raise Declined(f"{operation}: the gateway declined it",
                           display_message=refusal_words(body), **common)
        if verdict is Verdict.NOT_FOUND:
            raise NotFound(f"{operation}: no such record", **common)
        if verdict is Verdict.DONE:
            try:
                return shape.model_validate(body)
            except ValidationError:
                pass
        raise UnexpectedAnswer(f"{operation}: the gateway's answer does not say whether it "
                               f"was done", **common)

    return read


def read_status(reply: Reply) -> StatusResponse:
    """The status answer, its gid from ``data`` or else the envelope; NOT_FOUND in a 2xx is
    :class:`NotFound`; a body we cannot read is a :class:`GatewayError` (nothing changes)."""
    body = reply.body
    if isinstance(body, dict) and NOT_FOUND_WORD in status_words(body):
        raise NotFound("status: no such record", http_status=reply.status, body=body,
                       reason_code=reason_code(body))
    try:
        return StatusResponse.model_validate(body)
    except ValidationError:
        raise GatewayError("status: the gateway's answer has an unexpected shape",
                           http_status=reply.status, body=body) from None


#: Below this an ``iat`` is in seconds (10^12 ms is September 2001).
_SECONDS_BELOW = 10 ** 12


def issued_at_ms(iat: Any) -> int:
    """A token's ``iat`` as epoch milliseconds: milliseconds or seconds (a value below 10^12),
    a string or a number. ValueError when it is neither."""
    if isinstance(iat, bool) or not isinstance(iat, str | int | float):
        raise ValueError("iat is not a number")
    value = float(iat) if isinstance(iat, str) else iat
    if value != value or value < 0:  # NaN or negative
        raise ValueError("iat is not a time")
    return int(value * 1000) if value < _SECONDS_BELOW else int(value)


def read_callback_claims(claims: dict[str, Any]) -> CallbackClaims:
    """The callback token's claims, as revision 3 reads them; ValueError naming what is
    missing when they name no payment or no time."""
    try:
        parsed = CallbackClaims.model_validate(claims)
    except ValidationError as exc:
        missing = ", ".join(str(e["loc"][0]) for e in exc.errors(include_url=False))
        raise ValueError(f"no usable {missing}") from None
    if not (parsed.payment_gid or parsed.unique_id):
        raise ValueError("no gid, x-gl-gid, merchantUniqueId or x-gl-orderId")
    return parsed
