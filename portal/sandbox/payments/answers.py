"""What the payments API answers, in the sandbox's answer dialect
(``portal.sandbox.common.dialect``).

The contract's shapes by default; with ``answerDialect: "docs"`` the variants of the gateway's
docs (docs/gateway-facts.md D, samples-rev3): the status's gid in the envelope only and ``data`` as
get-transaction-status.mdx shows it, capture and reversal without data, the refund page's
``{status: SUCCESS, code: GC000, data{...}}``, the initiate's ``data{gid, redirectUrl, status}``,
and every refusal in the docs' error envelope, an unknown payment as 400 GL-400-999. The answers
of the scenario cards (``scenarios``) are the same in both dialects.

An :class:`Answers` is made per request; each of its methods returns the body and its HTTP
status.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from portal.gateway.payments.answers import CardData, InitiateData, PaymentStatusData
from portal.gateway.shapes import Envelope, ErrorMessages, ResponseModel
from portal.sandbox.common.dialect import SUCCESS, SUCCESS_DONE_CODE, docs_error
from portal.sandbox.common.envelopes import (
    TIMESTAMP_FORMAT,
    envelope,
    error_envelope,
    error_messages,
)
from portal.sandbox.common.errors import NOT_FOUND, ApiError, DuplicateId
from portal.sandbox.payments.records import Action, ActionKind, Payment, money, new_answer_gid
from portal.sandbox.payments.scenarios import DECLINES, QUEUED, Scenario

Answer = tuple[dict[str, Any], int]


class DocsRefundData(ResponseModel):
    """``data`` of the docs' refund answer (refund.mdx) as written: the refund's own ``gid``
    and ``refundId``, ``refundAmount`` a number, ``currency``. The sandbox answers it in its
    docs dialect; the client's :class:`~portal.gateway.payments.answers.RefundData` reads it."""

    gid: str
    refundId: str
    refundType: str
    refundStatus: str
    refundAmount: float
    currency: str

#: The reasonCode of a status answer and of a reversal (the docs' "200").
OK_CODE = "200"
#: The docs' capture answer writes its timestamp in ISO 8601 (standalone-capture.mdx).
ISO_TIMESTAMP = "%Y-%m-%dT%H:%M:%SZ"
#: The docs' refund answer's ``refundStatus`` of a refund taken.
REFUND_INITIATED = "INITIATED"
NOT_FOUND_MESSAGE = "Transaction not found"
#: The docs' gateway refuses a call the payment's state does not allow with a 400 (the
#: contract lets the sandbox say 409).
REFUSED_STATUS = 400
CONFLICT = 409
#: Every sandbox test card is a credit card.
CARD_TYPE = "CREDIT"


@dataclass(frozen=True)
class Answers:
    """The answers of one request: in the docs' shapes or the contract's, stamped ``now``."""

    docs: bool
    now: datetime

    def initiate(self, payment: Payment, redirect_url: str, status_url: str) -> Answer:
        """Where to send the customer (and, in the contract's shape, where to poll)."""
        if self.docs:
            data = InitiateData(gid=payment.gid, redirectUrl=redirect_url, status=payment.status)
            return Envelope(gid=payment.gid, status=payment.status,
                            data=data.model_dump(exclude_none=True)
                            ).model_dump(exclude_unset=True), 200
        data = InitiateData(redirectUrl=redirect_url, statusUrl=status_url,
                            merchantTxnId=payment.request.merchantTxnId)
        return self._contract(payment, data.model_dump(exclude_none=True), OK_CODE,
                              "Payment initiated; send the customer to redirectUrl"), 200

    def status(self, payment: Payment, action: Action | None) -> Answer:
        """The payment read by its gid or a merchantTxnId (of one of its actions: then as it
        stood right after that action)."""
        if self.docs:  # revision 4: the envelope says how the call went, with its own gid
            data = _docs_status_data(payment, action)
            return Envelope(gid=new_answer_gid(), status=SUCCESS, message="Get Status Successful",
                            timestamp=self.now.strftime(TIMESTAMP_FORMAT), reasonCode=OK_CODE,
                            data=data, errors=None).model_dump(exclude_unset=True), 200
        data = payment.status_data(action)
        word = data["status"]
        return self._contract(payment, data, OK_CODE, f"The payment is {word}", word), 200

    def action(self, payment: Payment, action: Action) -> Answer:
        """A capture's or reversal's answer (a scenario card's in both dialects)."""
        scenario = self._scenario(payment, action)
        if scenario is not None:
            return scenario
        if self.docs:
            return self._bare(action.gid, payment.status, action.message), 200
        reason_code = action.reason_code if action.kind is ActionKind.CAPTURE else OK_CODE
        return self._contract(payment, payment.status_data(action), reason_code,
                              action.message), 200

    def refund(self, payment: Payment, refund: Action) -> Answer:
        """A refund's answer: the PHP SDK's recorded shape, or the docs' refund page's (the
        refund's own gid and refundId)."""
        scenario = self._scenario(payment, refund)
        if scenario is not None:
            return scenario
        if not self.docs:
            return self._contract(payment, payment.refund_data(refund), refund.reason_code,
                                  refund.message), 200
        data = DocsRefundData(gid=refund.gid, refundId=refund.refund_id,
                              refundType=str(refund.scope), refundStatus=REFUND_INITIATED,
                              refundAmount=float(refund.amount), currency=payment.currency)
        return Envelope(status=SUCCESS, code=SUCCESS_DONE_CODE,
                        message="Refund initiated successfully.",
                        data=data.model_dump()).model_dump(exclude_unset=True), 200

    def refusal(self, error: ApiError) -> Answer:
        """A refused call: the contract's error envelope (with errorDetails), or the docs' (an
        unknown payment a 400 GL-400-999, a state refusal a 400)."""
        field_errors = error.field_errors or []
        if self.docs and isinstance(error, DuplicateId):
            return {"gid": new_answer_gid(), "timestamp": self.now.strftime(TIMESTAMP_FORMAT),
                    "reasonCode": error.reason_code, "data": {}, "errors": None,
                    "errorDetails": [{"fieldName": e.field, "message": e.message}
                                     for e in field_errors]}, error.status
        if not self.docs:
            return error_envelope(error.reason_code, error.message, field_errors,
                                  now=self.now), error.status
        if error.reason_code == NOT_FOUND:
            return docs_error(NOT_FOUND, NOT_FOUND_MESSAGE), REFUSED_STATUS
        status = REFUSED_STATUS if error.status == CONFLICT else error.status
        return docs_error(error.reason_code, error.message,
                          error_messages(error.message, field_errors)), status

    # ------------------------------------------------------------ shapes

    def _contract(self, payment: Payment, data: Any, reason_code: str, message: str,
                  status: str | None = None) -> dict[str, Any]:
        """The contract's envelope of an answer about ``payment``."""
        return envelope(data, now=self.now, reason_code=reason_code, gid=payment.gid,
                        status=status or payment.status, message=message)

    def _bare(self, gid: str, status: str, message: str) -> dict[str, Any]:
        """``{gid, status, message, timestamp, errors: null}``, as the docs' capture answer, the
        gid the action's own (revision 4)."""
        return Envelope(gid=gid, status=status, message=message,
                        timestamp=self.now.strftime(ISO_TIMESTAMP),
                        errors=None).model_dump(exclude_unset=True)

    def _scenario(self, payment: Payment, action: Action) -> Answer | None:
        """A scenario card's answer to ``action``: its decline, or the undocumented QUEUED."""
        if not action.applied and payment.scenario in DECLINES:
            decline = DECLINES[payment.scenario]
            words = ErrorMessages(displayMessage=decline.display, detailedMessage=decline.message)
            return docs_error(decline.reason_code, decline.message, words.model_dump(),
                              status=decline.status, gid=payment.gid), decline.http_status
        if payment.scenario is Scenario.CAPTURE_QUEUED and action.kind is ActionKind.CAPTURE:
            answer = Envelope(gid=payment.gid, status=QUEUED, message="Capture queued",
                              timestamp=self.now.strftime(ISO_TIMESTAMP))
            return answer.model_dump(exclude_unset=True), 200
        return None


def _docs_status_data(payment: Payment, action: Action | None) -> dict[str, Any]:
    """``data`` of get-transaction-status.mdx with the order's ``gid`` and the authorisation's
    ``reasonCode`` beside it, as openapi.yaml@a3e292a's examples show them; the card masked."""
    card = (CardData(maskedCardNumber=payment.masked_card, cardScheme=payment.brand,
                     cardType=CARD_TYPE) if payment.masked_card else None)
    data = PaymentStatusData(
        gid=payment.gid, status=action.status if action else payment.status,
        merchantTxnId=action.merchant_txn_id if action else payment.request.merchantTxnId,
        merchantUniqueId=payment.request.merchantUniqueId, paymentMethod=payment.method,
        totalAmount=money(action.amount) if action else money(payment.held),
        reasonCode=action.reason_code if action else payment.reason_code,
        txnCurrency=payment.currency, cardData=card)
    return data.model_dump(exclude_none=True)
