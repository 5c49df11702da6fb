"""A payment in words that match the portal's own ledger: what was captured and refunded, what
is still refundable once the refunds waiting for a second admin are counted, and which
reference the customer was given.

The gateway's status alone says too little: SENT_FOR_REFUND follows a refund of 2,000 of an
18,000 capture as much as a full one. The list, the payment's page and the message after an
action all take their words from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from portal.core.label_tables import Kind
from portal.core.labels import badge, label
from portal.core.models.payment import Payment, PaymentRefund, RefundState
from portal.gateway.payments.words import PaymentStatus

#: What the page calls the merchantTxnId: the order reference the customer was shown on the
#: hosted page and on the result page.
CUSTOMER_REFERENCE = "Order reference"
#: What a customer reads of a payment that ended unpaid, on the result page and the link's page
#: alike (``not_paid_words`` the rest), in the page's language.
NOT_PAID_HEADING = _l("Your payment was not completed")


def not_paid_words(shop: str) -> str:
    """What a customer reads under :data:`NOT_PAID_HEADING`, in the merchant's name."""
    return _("Nothing was charged. To pay, ask %(shop)s for a new payment link.", shop=shop)


def number(amount: Decimal | str) -> str:
    """An amount as people read it: thousands grouped, whole amounts without decimals
    ("18,000", "299.50")."""
    value = Decimal(amount)
    return f"{value:,.0f}" if value == value.to_integral_value() else f"{value:,.2f}"


def money(amount: Decimal | str, currency: str) -> str:
    """An amount and its currency as people read them ("18,000 INR")."""
    return f"{number(amount)} {currency}"


@dataclass(frozen=True)
class Ledger:
    """A payment's amounts as the portal's own records have them."""

    currency: str
    captured: Decimal | None
    #: Refunds the gateway took.
    refunded: Decimal
    #: Refunds sent whose outcome is not known yet (still counted against what is left).
    in_doubt: Decimal
    #: Refunds asked for and waiting for a second admin's approval.
    awaiting: Decimal

    @property
    def refundable(self) -> Decimal:
        """What may still be refunded: the capture less refunds taken, in doubt and waiting."""
        if self.captured is None:
            return Decimal(0)
        return max(self.captured - self.refunded - self.in_doubt - self.awaiting, Decimal(0))


def ledger_of(payment: Payment, refunds: list[PaymentRefund],
              awaiting: Decimal = Decimal(0)) -> Ledger:
    """The payment's ledger from its refund rows and the refunds awaiting approval."""
    def total(*states: RefundState) -> Decimal:
        return sum((Decimal(r.amount) for r in refunds if r.state in states), Decimal(0))
    captured = Decimal(payment.captured_amount) if payment.captured_amount else None
    return Ledger(payment.currency, captured, total(RefundState.SENT),
                  total(RefundState.SENDING, RefundState.UNKNOWN), awaiting)


def status_words(payment: Payment, refunds: list[PaymentRefund]) -> str:
    """The payment's status as its ledger has it: "Partly refunded: 2,000 of 18,000 INR",
    "Refunded: 18,000 INR", "Captured: 1,000 of 1,500 INR"; the status's label otherwise."""
    ledger = ledger_of(payment, refunds)
    captured = ledger.captured
    if payment.status in (PaymentStatus.SENT_FOR_REFUND, PaymentStatus.SENT_FOR_CAPTURE) \
            and captured is not None:
        if ledger.refunded >= captured:
            return f"Refunded: {money(captured, payment.currency)}"
        if ledger.refunded > 0:
            return (f"Partly refunded: {number(ledger.refunded)} of "
                    f"{money(captured, payment.currency)}")
        if payment.status == PaymentStatus.SENT_FOR_CAPTURE:
            if captured < payment.authorised:
                return (f"Captured: {number(captured)} of "
                        f"{money(payment.authorised, payment.currency)}")
            return f"Captured: {money(captured, payment.currency)}"
    return label(payment.status, Kind.PAYMENT_STATUS)


def status_badge(payment: Payment, refunds: list[PaymentRefund]) -> Markup:
    """The status as a coloured badge saying :func:`status_words`."""
    return badge(payment.status, Kind.PAYMENT_STATUS, text=status_words(payment, refunds))


def sent_message(noun: str, payment: Payment, refunds: list[PaymentRefund]) -> str:
    """What ops read once a capture, reversal or refund went through."""
    words = status_words(payment, refunds)
    return f"The {noun} was sent; the payment is now {words[:1].lower()}{words[1:]}."
