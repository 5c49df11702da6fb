"""Which shapes the sandbox answers in (docs/gateway-contract.md, "Reading answers").

``answerDialect`` in the config: ``"contract"`` (the default) answers in the contract's shapes;
``"docs"`` answers in the variants the gateway's public docs show (docs/gateway-facts.md D, the JSON
files of ``samples-rev3``), so the portal's tests run against both readings. The records are the
same in both: only the answers differ. What each API answers in the docs dialect lives beside
that API (``payments/answers.py``, ``onboarding/docs_answers.py``); here is what they share: the
dialect's names, the docs' error envelope and its system fault.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from portal.gateway.payments.reading import SUCCESS_CODE, SUCCESS_WORD
from portal.gateway.shapes import Envelope, ErrorMessages
from portal.sandbox.common.envelopes import REQUEST_ERROR


class AnswerDialect(StrEnum):
    """The shapes the sandbox answers in."""

    CONTRACT = "contract"
    DOCS = "docs"


#: The docs' status word of an answer that did what was asked (bank details, documents,
#: refund), and the refund answer's ``code`` that goes with it.
SUCCESS = SUCCESS_WORD
SUCCESS_DONE_CODE = SUCCESS_CODE
#: The system fault of the docs' response codes (response-codes.mdx, "HTTP 501").
SYSTEM_FAULT_STATUS = 501
SYSTEM_FAULT_CODE = "GL-501-000"
SYSTEM_FAULT_MESSAGE = "Declined by System"
SYSTEM_ERROR = "SYSTEM_ERROR"


def speaks_docs(dialect: str) -> bool:
    """Whether ``dialect`` (a config value) is the docs'."""
    return dialect == AnswerDialect.DOCS


def docs_error(reason_code: str, message: str, errors: dict[str, str] | None = None, *,
               status: str = REQUEST_ERROR, gid: str | None = None) -> dict[str, Any]:
    """An error as the docs show it: ``{status, message, reasonCode, errors{displayMessage,
    detailedMessage}}`` (``errors`` both ``message`` unless given), with ``gid`` when given, and
    nothing else (no timestamp, data or errorDetails)."""
    words = errors or ErrorMessages(displayMessage=message, detailedMessage=message).model_dump()
    answer = Envelope(status=status, message=message, reasonCode=reason_code, errors=words)
    if gid:
        answer.gid = gid
    return answer.model_dump(exclude_unset=True)


def system_fault_body() -> dict[str, Any]:
    """The docs' system error (samples-rev3/system-error.docs.json), answered with HTTP 501."""
    return docs_error(SYSTEM_FAULT_CODE, SYSTEM_FAULT_MESSAGE, status=SYSTEM_ERROR)
