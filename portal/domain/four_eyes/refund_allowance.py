"""How much of a payment may be refunded without a second admin: FOUR_EYES_REFUND_ABOVE is a
budget per payment over WINDOW (the sum of its refunds sent without approval), not a limit per
refund, so a large refund cannot be split into small ones. A refund that would take that sum
past the threshold waits for a second admin, as a large one does.

Race-free by construction: the decision reads the payment as committed and sends anything but
an idle payment to the request path (which refuses while a call is in flight). A refund is only
sent under the claim of the payment's current nonce, and every refund is committed with its
amount before its claim is released; so a form that can still claim the payment was loaded
after the last refund's claim, and a decision that sees the payment idle sees that refund.
Two refunds decided at once hold the same nonce: one claim wins, the other sends nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from decimal import Decimal, InvalidOperation

from portal.core import clock
from portal.core.db import db
from portal.core.models.payment import ActionState, Payment, PaymentRefund, RefundState
from portal.domain.payments.service import refunds_of

#: How far back the refunds sent without approval are added up.
WINDOW = timedelta(days=30)


def unapproved_sum(refunds: Iterable[PaymentRefund]) -> Decimal:
    """What ``refunds`` sent without a second admin within WINDOW add up to (a refund known to
    have failed aside; one whose outcome is unknown counts)."""
    since = clock.utcnow() - WINDOW
    return sum((Decimal(r.amount) for r in refunds
                if r.approval_request_id is None and r.state != RefundState.FAILED
                and r.created_at >= since), Decimal(0))


def left_without_approval(threshold: Decimal | None, refunds: Iterable[PaymentRefund]
                          ) -> Decimal | None:
    """How much more may be refunded now without a second admin (None: no limit)."""
    return None if threshold is None else max(threshold - unapproved_sum(refunds), Decimal(0))


def needs_approval(threshold: Decimal | None, payment: Payment, amount: str | None) -> bool:
    """Whether a refund of ``amount`` (as typed) of ``payment`` must wait for a second admin:
    it would take the payment's refunds sent without approval within WINDOW past ``threshold``
    (None: no refund ever waits), or the payment is not idle, so its refunds cannot all be
    counted yet (the request path then says why nothing can be asked now)."""
    if threshold is None or amount is None:
        return False
    db.session.commit()  # end any earlier read: what is decided on is what is committed now
    db.session.refresh(payment)
    if payment.action_state != ActionState.IDLE:
        return True
    try:
        return unapproved_sum(refunds_of(payment)) + Decimal(amount) > threshold
    except InvalidOperation:
        return False  # the refund's own check says what is wrong with the amount


def mark_approved(payment: Payment, earlier: set[int], request_id: int) -> None:
    """Note on the refund an approved request just sent (every refund of ``payment`` not among
    the ``earlier`` ids) that a second admin approved it; the caller commits. Until then it
    counts as sent without approval: the stricter reading, also if the process dies between."""
    for refund in refunds_of(payment):
        if refund.id not in earlier:
            refund.approval_request_id = request_id
