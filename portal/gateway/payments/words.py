"""The payments API's status words and what each says (docs/gateway-contract.md, revision 4,
"Status words, complete" and "Reason codes never decide money").

The words are the gateway's. What the portal does with a payment in each status (its place on
the forward path, whether it is polled, refundable, its label) is the portal's table,
``portal.core.payment_statuses``.
"""

from __future__ import annotations

from enum import StrEnum


class PaymentStatus(StrEnum):
    """A payment's status, as the gateway's sources name it (spec 3, docs/gateway-facts.md B7
    and E)."""

    CREATED = "CREATED"
    INPROGRESS = "INPROGRESS"
    AUTHORIZED = "AUTHORIZED"
    CAPTURE_STARTED = "CAPTURE_STARTED"
    SENT_FOR_CAPTURE = "SENT_FOR_CAPTURE"
    CAPTURED = "CAPTURED"
    SENT_FOR_REFUND = "SENT_FOR_REFUND"
    REVERSED = "REVERSED"
    CANCELLED = "CANCELLED"
    EXPIRED = "EXPIRED"
    #: A decline that may still turn into an authorisation (reference/faq).
    CONDITIONAL_DECLINE = "CONDITIONAL_DECLINE"
    ISSUER_DECLINE = "ISSUER_DECLINE"
    DECLINED = "DECLINED"
    FAILED = "FAILED"
    GENERAL_DECLINE = "GENERAL_DECLINE"
    REQUEST_ERROR = "REQUEST_ERROR"
    SYSTEM_ERROR = "SYSTEM_ERROR"
    SYSTEM_DECLINED = "SYSTEM_DECLINED"
    AUTHENTICATION_TIMEOUT = "AUTHENTICATION_TIMEOUT"
    AUTHENTICATION_FAILED = "AUTHENTICATION_FAILED"
    CONFIG_ERROR = "CONFIG_ERROR"
    RULE_CONFIG_ERROR = "RULE_CONFIG_ERROR"
    CUSTOMER_CANCELLED = "CUSTOMER_CANCELLED"
    ABANDONED = "ABANDONED"
    PRE_PAYNOW_ABANDONED = "PRE_PAYNOW_ABANDONED"
    MARKED_AS_FRAUD = "MARKED_AS_FRAUD"
    ALTPAY_DECLINE = "ALTPAY_DECLINE"


#: Final failures: nothing is held, and nothing will be.
FINAL_FAILURES = frozenset({
    PaymentStatus.REQUEST_ERROR, PaymentStatus.SYSTEM_ERROR, PaymentStatus.ISSUER_DECLINE,
    PaymentStatus.DECLINED, PaymentStatus.FAILED, PaymentStatus.GENERAL_DECLINE,
    PaymentStatus.AUTHENTICATION_TIMEOUT, PaymentStatus.AUTHENTICATION_FAILED,
    PaymentStatus.CONFIG_ERROR, PaymentStatus.RULE_CONFIG_ERROR, PaymentStatus.SYSTEM_DECLINED,
    PaymentStatus.CUSTOMER_CANCELLED, PaymentStatus.ABANDONED, PaymentStatus.PRE_PAYNOW_ABANDONED,
    PaymentStatus.EXPIRED, PaymentStatus.MARKED_AS_FRAUD, PaymentStatus.ALTPAY_DECLINE,
})

#: The words each action is known to produce when it was done.
ACTION_DONE: dict[str, frozenset[str]] = {
    "initiate": frozenset({PaymentStatus.INPROGRESS, PaymentStatus.CREATED}),
    "capture": frozenset({PaymentStatus.SENT_FOR_CAPTURE, PaymentStatus.CAPTURE_STARTED,
                          PaymentStatus.CAPTURED}),
    "auth_reversal": frozenset({PaymentStatus.REVERSED, PaymentStatus.CANCELLED}),
    "refund": frozenset({PaymentStatus.SENT_FOR_REFUND, "REFUND_STARTED", "INITIATED"}),
}
#: Words that say an action was not done, whatever the HTTP code: the final failures, and a
#: conditional decline (nothing was held or moved by the call that answered it).
ACTION_REFUSED = FINAL_FAILURES | {PaymentStatus.CONDITIONAL_DECLINE}

#: Envelope words that are the API call's own outcome, not the payment's state: alone (with no
#: ``data.status``) they make a status answer unreadable.
CALL_OUTCOME_WORDS = frozenset({"SUCCESS", "FAILURE", PaymentStatus.CREATED})

#: "Partially approved" in the old (GL-201-003) and the new (GL-201-004) reason-code tables.
PARTIAL_APPROVAL_CODES = frozenset({"GL-201-003", "GL-201-004"})


def known(word: str) -> bool:
    """Whether ``word`` is a payment status the gateway's sources name."""
    return word in PaymentStatus.__members__


def is_partial_approval(reason_code: str, message: str = "") -> bool:
    """Whether an authorisation's reason code or message says only part was approved."""
    return (reason_code.strip() in PARTIAL_APPROVAL_CODES
            or "partially approved" in message.lower())
