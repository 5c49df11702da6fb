"""What the sandbox's payments API stores: payments and what happened to each."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any

from portal.gateway.payments.answers import PaymentStatusData, RefundData
from portal.gateway.payments.requests import InitiateRequest
from portal.gateway.payments.words import PaymentStatus
from portal.sandbox.common.envelopes import TIMESTAMP_FORMAT
from portal.sandbox.payments.scenarios import Scenario


def money(value: Decimal) -> str:
    """An amount as the gateway writes it (plain decimal, no exponent)."""
    return format(value, "f")


@dataclass(frozen=True)
class Outcome:
    """What the hosted page decided for a payment."""

    status: PaymentStatus
    reason_code: str
    message: str
    method: str
    brand: str | None = None
    #: The card as the status shows it: its first six and last four digits, the rest masked.
    masked_card: str | None = None
    #: What the card makes later calls answer (``scenarios``), if it is a scenario card.
    scenario: Scenario | None = None


class ActionKind(StrEnum):
    """What a follow-up call did to a payment."""

    CAPTURE = "capture"
    REVERSAL = "reversal"
    REFUND = "refund"


def new_answer_gid() -> str:
    """The gid of one answer (an action's own), as the 2025 recordings write them: 16 hex
    digits, no payment-id form."""
    return "gl_" + secrets.token_hex(8)


def new_transaction_gid() -> str:
    """A payment's second id, its transaction's (the 2025 tokens' ``x-gl-gid``)."""
    return "gl_" + secrets.token_hex(12) + "X2"


def new_refund_id() -> str:
    """A refund's own id, as the docs' refund answer carries one (``refundId``)."""
    return "RFD-" + secrets.token_hex(12).upper()


@dataclass(frozen=True)
class Action:
    """One capture, reversal or refund: its own merchantTxnId (if it had one), its amount, and
    the payment's status right after it; a declined one (not ``applied``) its decline word.

    ``gid`` is the action's own gid at the gateway (the docs' refund answer names the refund's),
    ``refund_id`` a refund's ``refundId``, ``scope`` its refundType or captureType.
    """

    kind: ActionKind
    merchant_txn_id: str | None
    amount: Decimal
    status: str
    reason_code: str
    message: str
    applied: bool = True
    scope: str | None = None
    gid: str = field(default_factory=new_answer_gid)
    refund_id: str = field(default_factory=new_refund_id)


@dataclass
class Payment:
    """One hosted-checkout payment and everything that happened to it: ``gid`` its order id,
    the initiate's; ``transaction_gid`` its transaction's; ``approved`` what a partial approval
    held; ``turns_at`` when a conditional decline is authorised after all."""

    gid: str
    mid: str
    request: InitiateRequest
    amount: Decimal
    created_at: datetime
    status: PaymentStatus = PaymentStatus.INPROGRESS
    reason_code: str | None = None
    message: str | None = None
    method: str | None = None
    brand: str | None = None
    masked_card: str | None = None
    scenario: Scenario | None = None
    authorized_at: datetime | None = None
    captured: Decimal | None = None
    actions: list[Action] = field(default_factory=list)
    transaction_gid: str = field(default_factory=new_transaction_gid)
    approved: Decimal | None = None
    turns_at: datetime | None = None

    @property
    def held(self) -> Decimal:
        """What the authorisation holds: the amount, or what a partial approval held."""
        return self.approved if self.approved is not None else self.amount

    @property
    def currency(self) -> str:
        """The currency of the payment."""
        return self.request.paymentData.txnCurrency

    @property
    def refunds(self) -> list[Action]:
        """Its refunds, oldest first (declined ones too)."""
        return [a for a in self.actions if a.kind is ActionKind.REFUND]

    @property
    def refunded(self) -> Decimal:
        """The sum of all refunds made so far (declined ones refunded nothing)."""
        return sum((r.amount for r in self.refunds if r.applied), Decimal(0))

    def action_named(self, id_: str) -> Action | None:
        """The capture, reversal or refund sent with this merchantTxnId, or known by this gid
        of its own, if any."""
        return next((a for a in self.actions if id_ in (a.merchant_txn_id, a.gid)), None)

    def record(self, action: Action) -> Action:
        """Keep a follow-up call's outcome; an applied one sets the payment's status."""
        if action.applied:
            self.status, self.reason_code, self.message = (PaymentStatus(action.status),
                                                           action.reason_code, action.message)
        self.actions.append(action)
        return action

    def status_data(self, action: Action | None = None) -> dict[str, Any]:
        """The payment as the status call shows it, read by its gid or its merchantTxnId.

        Read by the merchantTxnId of one of its captures, reversals or refunds, the answer is
        the payment as it stood right after that action (its status, reasonCode and message)
        with that action's merchantTxnId and amount. The real gateway's answer to such a read
        is not documented beyond "Pass PayGlocal gid or your merchantTxnId"; this is the
        sandbox's reading. A merchantTxnId the gateway never got is a 404. No running totals
        (captured or refunded amounts) are shown: the real gateway's status has none.
        """
        data = PaymentStatusData.model_validate({
            "gid": self.gid,
            "status": action.status if action else self.status,
            "merchantTxnId": action.merchant_txn_id if action else self.request.merchantTxnId,
            "merchantUniqueId": self.request.merchantUniqueId,
            "Amount": money(action.amount) if action else money(self.held),
            "Currency": self.currency,
            "txnCurrency": self.currency,
            "reasonCode": action.reason_code if action else self.reason_code,
            "detailedMessage": action.message if action else self.message,
            "transactionCreationTime": self.created_at.strftime(TIMESTAMP_FORMAT),
            "payment-method": self.method,
            "CardBrand": self.brand,
        })
        return data.model_dump(by_alias=True, exclude_none=True)

    def refund_data(self, refund: Action) -> dict[str, Any]:
        """One of its refunds as the refund call answers it (the shape the PHP SDK recorded)."""
        return RefundData(merchantTxnId=refund.merchant_txn_id, refundCurrency=self.currency,
                          refundAmount=money(refund.amount)).model_dump(exclude_none=True)
