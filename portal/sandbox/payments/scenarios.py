"""Scenario cards: cards that authorise, then make a later call answer as the real gateway may
(docs/gateway-contract.md, "Reading answers": a 2xx can be a decline, and a 2xx can say nothing a
client knows).

In both answer dialects:

- ``4000000000000259``: its capture is declined with HTTP 201 (ISSUER_DECLINE, GL-201-015, as
  samples-rev3/capture-decline-2xx.docs.json); nothing is captured.
- ``4000000000000267``: it captures, but every refund is declined with HTTP 200 (FAILED,
  GL-201-500); nothing is refunded.
- ``4000000000000275``: its capture IS applied but answered HTTP 200 with a status word no source
  documents (``QUEUED``, no data): a client must take the outcome as unknown and find the capture
  by a status read of its merchantTxnId.

Two more cards decide the hosted page otherwise (revision 4, "Late outcomes" and "Reason codes
never decide money"):

- ``4000000000000283``: declined for now (CONDITIONAL_DECLINE, GL-201-006), then authorised
  ``lateAuthorisationMinutes`` (sandbox config, 30) of the sandbox's clock later.
- ``4000000000000291``: authorised with GL-201-004 "Partially approved": a status read says
  half the amount, and a capture of more than that is refused.

A declined call is kept as the payment's action (a status read of its merchantTxnId shows the
decline) without changing the payment.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from portal.gateway.payments.words import PaymentStatus


class Scenario(StrEnum):
    """What a scenario card makes the gateway do after it authorised."""

    CAPTURE_DECLINED = "capture declined"
    REFUND_DECLINED = "refund declined"
    CAPTURE_QUEUED = "capture queued"
    AUTHORISED_LATER = "authorised later"
    PARTIALLY_APPROVED = "partially approved"


#: The scenario cards (each passes Luhn and authorises on the hosted page).
SCENARIO_CARDS: dict[str, Scenario] = {
    "4000000000000259": Scenario.CAPTURE_DECLINED,
    "4000000000000267": Scenario.REFUND_DECLINED,
    "4000000000000275": Scenario.CAPTURE_QUEUED,
    "4000000000000283": Scenario.AUTHORISED_LATER,
    "4000000000000291": Scenario.PARTIALLY_APPROVED,
}
#: How the hosted page decides the cards that do not simply authorise: status, reasonCode,
#: message.
CHECKOUT_OUTCOMES: dict[Scenario, tuple[PaymentStatus, str, str]] = {
    Scenario.AUTHORISED_LATER: (PaymentStatus.CONDITIONAL_DECLINE, "GL-201-006",
                                "CVV failed; the issuer may still approve it"),
    Scenario.PARTIALLY_APPROVED: (PaymentStatus.AUTHORIZED, "GL-201-004", "Partially approved"),
}


@dataclass(frozen=True)
class Decline:
    """A 2xx answer that says no: its HTTP status, status word, reasonCode and words."""

    http_status: int
    status: str
    reason_code: str
    message: str
    display: str


#: The refund's status word of a declined refund (docs/gateway-contract.md, "Reading answers":
#: failure words).
FAILED = "FAILED"
#: The declines of the scenarios that have one.
DECLINES: dict[Scenario, Decline] = {
    Scenario.CAPTURE_DECLINED: Decline(201, PaymentStatus.ISSUER_DECLINE, "GL-201-015",
                                       "General Decline", "The card issuer declined the payment"),
    Scenario.REFUND_DECLINED: Decline(200, FAILED, "GL-201-500", "Declined by System",
                                      "The refund was declined by the gateway"),
}
#: The status word no source documents, answered to the queued capture.
QUEUED = "QUEUED"
