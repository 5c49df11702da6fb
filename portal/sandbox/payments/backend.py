"""The sandbox's payments backend: payments and their rules, over the keys of ``auth``.

No HTTP here: the routes parse requests and call these methods with plain arguments, so every
rule (who may sign, what a capture or refund may do, when a hold expires) is tested directly.
"""

from __future__ import annotations

import logging
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from pydantic import TypeAdapter

from portal.core.clock import Clock
from portal.gateway.payments.requests import (
    AuthReversalRequest,
    CaptureRequest,
    InitiateRequest,
    RefundRequest,
)
from portal.gateway.payments.vocabulary import AmountScope
from portal.gateway.payments.words import PaymentStatus
from portal.gateway.shapes import FieldError
from portal.sandbox.common import snapshots
from portal.sandbox.common.config import SandboxConfig
from portal.sandbox.common.dialect import speaks_docs
from portal.sandbox.common.envelopes import new_gid
from portal.sandbox.common.errors import (
    AMOUNT_MISMATCH,
    INVALID_DATA,
    NOT_FOUND,
    ApiError,
    DuplicateId,
    validation_error,
)
from portal.sandbox.payments.auth import PaymentsAuth
from portal.sandbox.payments.records import Action, ActionKind, Outcome, Payment, money
from portal.sandbox.payments.scenarios import DECLINES, Scenario

log = logging.getLogger("portal.sandbox.payments")

AMOUNT_FIELD = "paymentData.totalAmount"
#: The reasonCode of an authorisation (both reason-code tables' GL-201-001 "created").
APPROVED_CODE = "GL-201-001"
_PAYMENTS = TypeAdapter(list[Payment])


class PaymentsBackend(PaymentsAuth):
    """Payments held in memory, with the gateway's rules; resettable between tests."""

    def __init__(self, config: SandboxConfig, clock: Clock) -> None:
        super().__init__(config, clock)
        self._payments: dict[str, Payment] = {}

    def reset(self) -> None:
        """Forget every payment (keys stay)."""
        with self._lock:
            self._payments.clear()

    def snapshot(self) -> dict[str, Any]:
        """What a restart must keep, as JSON: payments, registered keys and portfolios."""
        with self._lock:
            return {"payments": snapshots.dump(_PAYMENTS, list(self._payments.values())),
                    **self.keys_snapshot()}

    def restore(self, data: dict[str, Any]) -> None:
        """Take back what :meth:`snapshot` kept."""
        payments = snapshots.load(_PAYMENTS, data.get("payments", []))
        self.restore_keys(data)
        with self._lock:
            self._payments = {payment.gid: payment for payment in payments}

    # ------------------------------------------------------------ payments

    def today(self) -> date:
        """The sandbox clock's date, for card expiry."""
        return self._clock.now().date()

    def initiate(self, mid: str, request: InitiateRequest) -> Payment:
        """Create a payment waiting for the customer on the hosted page.

        A repeat of an initiate (the same merchantTxnId and merchantUniqueId, the gateway's
        idempotency key) is answered with the original payment (rate-limits page), but in the
        docs' dialect, where a merchantTxnId used before is a 400 "Duplicate merchantTxnId"
        (auth-capture-authorise.mdx). No source shows a merchantUniqueId refused on its own:
        with a new merchantTxnId it makes a new payment.
        """
        with self._lock:
            earlier = next((p for p in self._payments.values() if p.mid == mid
                            and p.request.merchantTxnId == request.merchantTxnId), None)
            if earlier is not None and not speaks_docs(self._config.answerDialect) \
                    and earlier.request.merchantUniqueId == request.merchantUniqueId:
                log.info("initiate repeated for %s: the original answered again", earlier.gid)
                return earlier
            if earlier is not None:
                raise DuplicateId
            payment = Payment(gid=new_gid("gl_o-"), mid=mid, request=request,
                              amount=Decimal(request.paymentData.totalAmount),
                              created_at=self._clock.now())
            self._payments[payment.gid] = payment
        log.info("initiated %s for %s", payment.gid, mid)
        return payment

    def get(self, gid: str, mid: str | None = None) -> Payment:
        """The payment, its hold expiry applied; 404 if unknown or another merchant's."""
        with self._lock:
            payment = self._payments.get(gid)
            if payment is None or (mid is not None and payment.mid != mid):
                raise _not_found()
            self._expire(payment)
            return payment

    def find(self, id_: str, mid: str | None) -> tuple[Payment, Action | None]:
        """The payment known by its gid, its transaction id, its merchantTxnId or
        merchantUniqueId, or the merchantTxnId of one of its captures, reversals or refunds
        (with that action); 404 if none of ``mid``'s payments has it."""
        with self._lock:
            if id_ in self._payments:
                return self.get(id_, mid), None
            mine = [p for p in self._payments.values() if mid is None or p.mid == mid]
            # newest first: a merchantTxnId reused across payments names the latest
            for payment in sorted(mine, key=lambda p: p.created_at, reverse=True):
                if id_ in (payment.request.merchantTxnId, payment.request.merchantUniqueId,
                           payment.transaction_gid):
                    return self.get(payment.gid), None
                action = payment.action_named(id_)
                if action is not None:
                    return self.get(payment.gid), action
            raise _not_found()

    def _expire(self, payment: Payment) -> None:
        """Apply what time does to a payment: a conditional decline authorised after all, and
        a hold that runs out."""
        if (payment.status is PaymentStatus.CONDITIONAL_DECLINE and payment.turns_at is not None
                and self._clock.now() >= payment.turns_at):
            payment.status, payment.reason_code = PaymentStatus.AUTHORIZED, APPROVED_CODE
            payment.message, payment.authorized_at = "Approved", payment.turns_at
        hours = self._config.holdExpiryHours
        if (payment.status is PaymentStatus.AUTHORIZED and payment.authorized_at is not None
                and self._clock.now() >= payment.authorized_at + timedelta(hours=hours)):
            payment.status = PaymentStatus.EXPIRED
            payment.message = f"The hold expired after {hours:g} hours; nothing was captured"

    def settle(self, gid: str, outcome: Outcome) -> Payment:
        """Record the hosted page's outcome; a payment is decided once only (409 after)."""
        with self._lock:
            payment = self.get(gid)
            if payment.status is not PaymentStatus.INPROGRESS:
                raise _refused("This payment is already complete")
            payment.status = outcome.status
            payment.reason_code = outcome.reason_code
            payment.message = outcome.message
            payment.method = outcome.method
            payment.brand = outcome.brand
            payment.masked_card = outcome.masked_card
            payment.scenario = outcome.scenario
            if outcome.status is PaymentStatus.AUTHORIZED:
                payment.authorized_at = self._clock.now()
            if outcome.scenario is Scenario.PARTIALLY_APPROVED:
                payment.approved = (payment.amount / 2).quantize(Decimal("0.01"))
            if outcome.scenario is Scenario.AUTHORISED_LATER:
                payment.turns_at = self._clock.now() + timedelta(
                    minutes=self._config.lateAuthorisationMinutes)
        log.info("checkout %s -> %s %s", gid, outcome.status, outcome.reason_code)
        return payment

    def capture(self, mid: str, gid: str, request: CaptureRequest) -> tuple[Payment, Action]:
        """Capture once, at most the authorised amount; the rest of the hold is released. The
        capture-decline scenario card declines it instead, capturing nothing."""
        with self._lock:
            payment = self._in_status(mid, gid, {PaymentStatus.AUTHORIZED}, "captured")
            wanted = _requested(request.paymentData)
            if wanted is not None and wanted > payment.held:
                raise _amount_error(f"At most the authorised {money(payment.held)} can be "
                                    "captured")
            if request.captureType is AmountScope.FULL and wanted not in (None, payment.held):
                raise _amount_error("A full capture takes the authorised amount; send P for less")
            amount = wanted if wanted is not None else payment.held
            if payment.scenario is Scenario.CAPTURE_DECLINED:
                return payment, payment.record(_declined(
                    ActionKind.CAPTURE, request.merchantTxnId, amount, Scenario.CAPTURE_DECLINED,
                    request.captureType))
            payment.captured = amount
            return payment, payment.record(Action(
                ActionKind.CAPTURE, request.merchantTxnId, payment.captured,
                PaymentStatus.SENT_FOR_CAPTURE, "GL-201-001", "Sent for capture",
                scope=request.captureType))

    def reverse(self, mid: str, gid: str, request: AuthReversalRequest
                ) -> tuple[Payment, Action]:
        """Release the whole hold; only from AUTHORIZED."""
        with self._lock:
            payment = self._in_status(mid, gid, {PaymentStatus.AUTHORIZED}, "reversed")
            return payment, payment.record(Action(
                ActionKind.REVERSAL, request.merchantTxnId, payment.amount,
                PaymentStatus.REVERSED, payment.reason_code or "", "The hold was released"))

    def refund(self, mid: str, gid: str, request: RefundRequest) -> tuple[Payment, Action]:
        """Refund after capture; all refunds together at most the captured amount.

        ``txnCurrency`` may be left out (docs refund-service): it is the payment's.
        """
        with self._lock:
            payment = self._in_status(
                mid, gid, {PaymentStatus.SENT_FOR_CAPTURE, PaymentStatus.SENT_FOR_REFUND},
                "refunded")
            if any(r.merchant_txn_id == request.merchantTxnId for r in payment.refunds):
                raise _refused("A refund with this merchantTxnId was already made")
            currency = request.paymentData.txnCurrency if request.paymentData else None
            if currency not in (None, payment.currency):
                raise validation_error([FieldError("paymentData.txnCurrency",
                                                   f"The payment is in {payment.currency}")])
            remaining = (payment.captured or Decimal(0)) - payment.refunded
            wanted = _requested(request.paymentData)
            if request.refundType is AmountScope.FULL and wanted not in (None, remaining):
                raise _amount_error(f"A full refund is the remaining {remaining}; send P for less")
            amount = wanted if wanted is not None else remaining
            if remaining <= 0 or amount > remaining:
                raise _refused(f"At most {money(remaining)} is left to refund", AMOUNT_MISMATCH)
            if payment.scenario is Scenario.REFUND_DECLINED:
                return payment, payment.record(_declined(
                    ActionKind.REFUND, request.merchantTxnId, amount, Scenario.REFUND_DECLINED,
                    request.refundType))
            refund = payment.record(Action(ActionKind.REFUND, request.merchantTxnId, amount,
                                           PaymentStatus.SENT_FOR_REFUND, "GL-201-001",
                                           "Refund request sent successfully",
                                           scope=request.refundType))
            return payment, refund

    def _in_status(self, mid: str, gid: str, allowed: set[PaymentStatus], verb: str) -> Payment:
        payment = self.get(gid, mid)
        if payment.status not in allowed:
            raise _refused(f"A payment in status {payment.status} cannot be {verb}")
        return payment


def _declined(kind: ActionKind, merchant_txn_id: str | None, amount: Decimal,
              scenario: Scenario, scope: AmountScope) -> Action:
    """A call a scenario card declines: kept (a status read of its merchantTxnId shows the
    decline), never applied to the payment."""
    decline = DECLINES[scenario]
    return Action(kind, merchant_txn_id, amount, decline.status, decline.reason_code,
                  decline.message, applied=False, scope=scope)


def _requested(payment_data: Any) -> Decimal | None:
    return Decimal(payment_data.totalAmount) if payment_data is not None else None


def _amount_error(message: str) -> ApiError:
    """400 GL-400-006 (amount mismatch) on the amount field."""
    return ApiError(400, AMOUNT_MISMATCH, message, [FieldError(AMOUNT_FIELD, message)])


def _refused(message: str, reason_code: str = INVALID_DATA) -> ApiError:
    """409 for a call the payment's state refuses (a second capture, an over-refund).

    The real gateway answers 400 with a GL-400 reasonCode; the contract lets the sandbox keep
    409 so a client sees the difference from a bad field, with the same GL-400 reasonCode.
    """
    return ApiError(409, reason_code, message)


def _not_found() -> ApiError:
    """404 with the gateway's "not found" reasonCode (GL-400-999)."""
    return ApiError(404, NOT_FOUND, "No such payment")
