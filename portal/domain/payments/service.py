"""What every payments page shares: who may take payments, how a call went, new ids, and a
payment's refunds (finding payments is ``portal.features.payments.search``'s).

Functions take plain arguments and commit their own unit of work; nothing here knows about
requests or forms.
"""

from __future__ import annotations

import secrets
import string
from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import select

from portal.core.db import db
from portal.core.labels import label
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment, PaymentRefund, RefundState
from portal.core.payment_statuses import ROWS
from portal.domain.onboarding.product_approvals import APPROVAL_WORDS, Standing, card_approval
from portal.domain.pausing.stops import refusal_words
from portal.gateway.errors import (
    TOO_MANY_REQUESTS,
    Declined,
    GatewayError,
    GatewayUnavailable,
    NotFound,
    Unauthorized,
    ValidationFailed,
)
from portal.gateway.payments.jws import refused_for_age
from portal.gateway.shapes import FieldError

APPROVED = "APPROVED"
#: The audit outcome of a call whose answer was lost.
OUTCOME_UNKNOWN = "unknown"
#: The follow-up calls, as ``Payment.action_name`` names them.
CAPTURE = "capture"
REVERSE = "reverse"
REFUND = "refund"
#: The list's status filter: the gateway's statuses and ours before the gateway answered.
STATUS_CHOICES = tuple(ROWS)
_ALPHANUMERIC = string.ascii_uppercase + string.digits


@dataclass
class Result:
    """How a payments operation went; ``errors`` use the gateway's field paths."""

    ok: bool
    message: str = ""
    errors: list[FieldError] = field(default_factory=list)
    redirect_url: str | None = None
    #: The call was sent and its answer lost.
    outcome_unknown: bool = False


def failure_message(exc: GatewayError, what: str) -> str:
    """What to tell ops about a gateway call that certainly did not go through."""
    if isinstance(exc, GatewayUnavailable) and exc.http_status == TOO_MANY_REQUESTS:
        return (f"The gateway is busy and asked us to slow down, so the {what} was not sent; "
                "try again in a minute.")
    if isinstance(exc, GatewayUnavailable):
        return f"The gateway could not be reached, so the {what} was not sent; try again."
    if isinstance(exc, Unauthorized) and refused_for_age(exc.display_message or exc.message):
        return (f"The gateway refused the {what}'s signature as too old (or made in the "
                "future): this server's clock and the gateway's differ by more than a few "
                "minutes. The keys are fine; check this server's clock.")
    if isinstance(exc, Declined):
        reason = exc.display_message or "it gave no reason"
        return f"The gateway declined the {what}: {reason}. Nothing was {_DONE[what]}."
    if isinstance(exc, NotFound):
        return (f"The gateway does not know this payment, so the {what} was not made. Use "
                "Refresh status to see what the gateway has.")
    if isinstance(exc, Unauthorized):
        return ("The gateway refused the merchant's credentials: check that the public key and "
                "kid are registered with the gateway for this MID.")
    if isinstance(exc, ValidationFailed) and exc.field_errors:
        return f"The gateway refused the {what}: " + "; ".join(
            e.message for e in exc.field_errors)
    if exc.display_message:  # no field to attach it to: the gateway's words for a person
        return f"The gateway refused the {what}: {exc.display_message}"
    return f"The gateway refused the {what} ({exc.message})."


#: What a refused call did not do, by its noun.
_DONE = {"capture": "captured", "reversal": "released", "refund": "refunded",
         "hold": "held"}


def unknown_reason(exc: GatewayError) -> str:
    """Why a call's outcome is unknown, as the start of a sentence."""
    if isinstance(exc, GatewayUnavailable):
        return "The gateway did not answer"
    return "The gateway's answer did not say whether it was done"


def not_approved_reason(merchant: Merchant) -> str | None:
    """Why the merchant cannot have payment credentials yet (the gateway has not approved it),
    or None when it can."""
    if merchant.status == APPROVED:
        return None
    state = label(merchant.status).lower() if merchant.status else "not created at the gateway yet"
    return (f"Payments are available once the gateway has approved the merchant; this merchant "
            f"is {state}.")


def unavailable_reason(merchant: Merchant) -> str | None:
    """Why the merchant cannot take card holds or payment links, or None when it can: it needs
    the gateway's approval, its cards approval (or, before the gateway named any product, the
    overall one), no open pendency holding that up, and no pause or deactivation. Checked
    before any gateway call."""
    refused = refusal_words(merchant) or not_approved_reason(merchant)
    if refused:
        return refused
    cards = card_approval(merchant)
    if not cards.asked:
        return ("This merchant did not ask for a card product on its Products step, so it "
                "cannot take card holds or payment links.")
    if cards.held_up_by:
        one = len(cards.held_up_by) == 1
        pendencies = "an open pendency" if one else f"{len(cards.held_up_by)} open pendencies"
        return (f"The gateway reports {pendencies} holding up this merchant's cards approval, "
                "so it cannot take card holds or payment links until the gateway resolves "
                f"{'it' if one else 'them'}.")
    if cards.standing == Standing.WAITING:
        accepted = " and ".join(APPROVAL_WORDS[product] for product in cards.accepted_for)
        so_far = f"has accepted this merchant for {accepted} but not yet for cards" if accepted \
            else "has not accepted this merchant for cards yet"
        return (f"The gateway {so_far}, so it cannot take card holds or payment links until "
                "the gateway accepts it for cards.")
    return None


def approval_note(merchant: Merchant) -> str | None:
    """What the payments pages add when card holds rest on the gateway's overall approval (it
    named no product), or None."""
    if merchant.status != APPROVED or card_approval(merchant).standing != Standing.NAMED_NO_PRODUCT:
        return None
    return ("The gateway approved this merchant without saying which products it accepted, so "
            "card holds are allowed on that approval; the gateway may still refuse a hold if it "
            "has not enabled cards for the merchant.")


def _token(prefix: str, length: int) -> str:
    return prefix + "".join(secrets.choice(_ALPHANUMERIC) for _ in range(length - len(prefix)))


def new_merchant_txn_id() -> str:
    """A fresh merchantTxnId: 24 letters and digits."""
    return _token("PT", 24)


def new_merchant_unique_id() -> str:
    """A fresh merchantUniqueId: 32 letters and digits (the gateway takes 15 to 40)."""
    return _token("PU", 32)


def new_nonce() -> str:
    """A one-time token for the next action form of a payment."""
    return secrets.token_urlsafe(32)


def get_payment(payment_id: int) -> Payment | None:
    """The payment with this id, or None."""
    return db.session.get(Payment, payment_id)


def payment_by_gid(gid: str) -> Payment | None:
    """The payment the gateway knows as ``gid``, or None."""
    return db.session.scalar(select(Payment).where(Payment.gid == gid))


def refunds_of(payment: Payment) -> list[PaymentRefund]:
    """The payment's refunds, oldest first."""
    return list(db.session.scalars(
        select(PaymentRefund).where(PaymentRefund.payment_id == payment.id)
        .order_by(PaymentRefund.id)))


def refundable(payment: Payment, refunds: list[PaymentRefund]) -> Decimal:
    """What may still be refunded: the capture less every refund not known to have failed."""
    if payment.captured_amount is None:
        return Decimal(0)
    taken = sum((Decimal(r.amount) for r in refunds if r.state != RefundState.FAILED), Decimal(0))
    return Decimal(payment.captured_amount) - taken

