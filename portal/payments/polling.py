"""When the worker reads a payment's status next (docs/gateway-contract.md, "Polling").

The gateway calls status polling the recommended way to confirm an outcome: a customer whose
return to the portal is lost must not leave a hold "in progress" forever. Every payment that can
still move without an action of ours (waiting for the customer, authorised and not captured, a
call whose answer was lost) has a ``next_poll_at``; the worker's poll job reads those that are
due. A read that changes nothing makes the next one wait longer: every period for the first
:data:`STEADY_READS` reads, then twice as long each time, up to :data:`LONGEST_WAIT`.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from portal.core.models.payment import ActionState, Payment
from portal.core.payment_statuses import POLLED

#: Reads in a row at the job's own period before the waits grow.
STEADY_READS = 5
#: The longest wait between two reads of one payment.
LONGEST_WAIT = timedelta(hours=1)
#: The poll job's period when no setting says (PAYMENT_POLL_SECONDS's default).
DEFAULT_PERIOD = timedelta(seconds=60)


def needs_polling(payment: Payment) -> bool:
    """Whether the payment can still move without an action of ours, or a call of ours lost its
    answer."""
    if payment.action_state != ActionState.IDLE:
        return True
    return payment.gid is not None and payment.status in POLLED


def wait_after(unchanged: int, period: timedelta) -> timedelta:
    """How long to wait after ``unchanged`` reads in a row changed nothing."""
    doublings = max(0, unchanged - STEADY_READS + 1)
    return min(period * 2 ** min(doublings, 20), LONGEST_WAIT)


def due_now(payment: Payment, now: datetime) -> None:
    """Read this payment at the poll job's next run (it was just created or just changed)."""
    payment.unchanged_polls = 0
    payment.next_poll_at = now if needs_polling(payment) else None


def after_read(payment: Payment, moved: bool, now: datetime,
               period: timedelta = DEFAULT_PERIOD) -> None:
    """Schedule the next read after one that did (``moved``) or did not change the payment."""
    if not needs_polling(payment):
        payment.next_poll_at = None
        return
    payment.unchanged_polls = 0 if moved else payment.unchanged_polls + 1
    payment.next_poll_at = now + wait_after(payment.unchanged_polls, period)
