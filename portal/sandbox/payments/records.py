"""What the sandbox's payments API stores: payments and what happened to each."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any

from portal.gateway.payments_shapes import (
    InitiateRequest,
    PaymentStatus,
    PaymentStatusData,
    RefundData,
)
from portal.gateway.shapes import TIMESTAMP_FORMAT


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


class ActionKind(StrEnum):
    """What a follow-up call did to a payment."""

    CAPTURE = "capture"
    REVERSAL = "reversal"
    REFUND = "refund"


@dataclass(frozen=True)
class Action:
    """One capture, reversal or refund: its own merchantTxnId (if it had one), its amount, and
    the payment's status right after it."""

    kind: ActionKind
    merchant_txn_id: str | None
    amount: Decimal
    status: PaymentStatus
    reason_code: str
    message: str


@dataclass
class Payment:
    """One hosted-checkout payment and everything that happened to it."""

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
    authorized_at: datetime | None = None
    captured: Decimal | None = None
    actions: list[Action] = field(default_factory=list)

    @property
    def currency(self) -> str:
        """The currency of the payment."""
        return self.request.paymentData.txnCurrency

    @property
    def refunds(self) -> list[Action]:
        """Its refunds, oldest first."""
        return [a for a in self.actions if a.kind is ActionKind.REFUND]

    @property
    def refunded(self) -> Decimal:
        """The sum of all refunds so far."""
        return sum((r.amount for r in self.refunds), Decimal(0))

    def action_named(self, merchant_txn_id: str) -> Action | None:
        """The capture, reversal or refund sent with this merchantTxnId, if any."""
        return next((a for a in self.actions if a.merchant_txn_id == merchant_txn_id), None)

    def record(self, action: Action) -> Action:
        """Apply a follow-up call's outcome to the payment and keep it."""
        self.status, self.reason_code, self.message = (action.status, action.reason_code,
                                                       action.message)
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
            "Amount": money(action.amount) if action else self.request.paymentData.totalAmount,
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
