"""The payments API's answers, judged by their content (docs/gateway-contract.md, "Reading
answers", and revision 4's "Identity, idempotency and late outcomes").

The clients SEND the contract's one shape and READ every shape a source shows; an answer is
judged by what it says, never by its HTTP code alone. Every 2xx answer of the payments API
passes through this module on its way to the portal's one typed answer (the onboarding API's
through :mod:`portal.gateway.onboarding.reading`).

An action's 2xx answer (initiate, capture, reversal, refund) is:
- NOT FOUND when its status is NOT_FOUND;
- REFUSED when a status word in it (envelope ``status``, ``data.status``,
  ``data.refundStatus``) is a failure word: nothing happened, and the gateway's words say why;
- DONE when a status word is one the action is known to produce;
- REFUSED when it carries no status word at all and its reasonCode is a decline
  (GL-201-006..023, GL-201-500): the two published tables disagree on most codes, so a code
  never decides against a word;
- UNKNOWN otherwise (an unknown word, a body we cannot read): the gateway took the request,
  so the action may or may not have happened, and is settled by a status read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import StrEnum
from typing import Any, TypeVar

from pydantic import ValidationError

from portal.gateway.errors import Declined, GatewayError, NotFound, UnexpectedAnswer
from portal.gateway.payments.answers import CallbackClaims, StatusResponse
from portal.gateway.payments.words import ACTION_DONE, ACTION_REFUSED
from portal.gateway.shapes import Envelope, FieldError, display_message
from portal.gateway.transport import Reply

Answer = TypeVar("Answer", bound=Envelope)


class Verdict(StrEnum):
    """What an action's 2xx answer says happened."""

    DONE = "done"
    REFUSED = "refused"
    NOT_FOUND = "not found"
    UNKNOWN = "unknown"


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
    if ACTION_REFUSED.intersection(words):
        return Verdict.REFUSED
    if ACTION_DONE[operation].intersection(words):
        return Verdict.DONE
    if operation == "refund" and SUCCESS_WORD in words and body.get("code") == SUCCESS_CODE:
        return Verdict.DONE
    if not words and is_decline(reason_code(body)):
        return Verdict.REFUSED
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
    """The status answer; NOT_FOUND in a 2xx is :class:`NotFound`; a body we cannot read, or
    one that says only how the API call went and not the payment's state, is a
    :class:`GatewayError` (nothing changes; the payment is read again later)."""
    body = reply.body
    if isinstance(body, dict) and NOT_FOUND_WORD in status_words(body):
        raise NotFound("status: no such record", http_status=reply.status, body=body,
                       reason_code=reason_code(body))
    try:
        answer = StatusResponse.model_validate(body)
    except ValidationError:
        raise GatewayError("status: the gateway's answer has an unexpected shape",
                           http_status=reply.status, body=body) from None
    if answer.payment_status is None:
        raise GatewayError("status: the gateway's answer does not say the payment's state",
                           http_status=reply.status, body=body)
    return answer


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
    if not parsed.names_a_payment():
        raise ValueError("no gid, x-gl-orderId, x-gl-gid, merchantUniqueId or merchantTxnId")
    return parsed


def names_a_duplicate(errors: list[FieldError]) -> bool:
    """Whether a 400's field errors say our merchantTxnId or merchantUniqueId was used before:
    on a retry, "the payment may already exist", never a refusal (revision 4, "Idempotency")."""
    return any(error.field.rsplit(".", 1)[-1] in _IDEMPOTENCY_FIELDS
               and "duplicate" in error.message.lower() for error in errors)


_IDEMPOTENCY_FIELDS = frozenset({"merchantTxnId", "merchantUniqueId"})
