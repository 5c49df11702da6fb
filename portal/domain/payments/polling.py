"""When the worker reads a payment's status next (docs/gateway-contract.md, "Polling", and
revision 4's "Late outcomes" and "Rate limits").

The gateway calls status polling the recommended way to confirm an outcome: a customer whose
return to the portal is lost must not leave a hold "in progress" forever. Every payment that can
still move without an action of ours (waiting for the customer, authorised and not captured, a
call whose answer was lost, declined for now within :class:`PollRules`' late window) has a
``next_poll_at``; the worker's poll job reads those that are due. A read that changes nothing
makes the next one wait longer: every period for the first :data:`STEADY_READS` reads, then
twice as long each time, up to :data:`LONGEST_WAIT`. No payment is read twice within
:data:`SHORTEST_GAP`, and a rate-limit answer backs off 1, 2, 4, 8, 16 s (or its Retry-After).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from portal.core.config import Settings
from portal.core.models.payment import ActionState, Payment
from portal.core.payment_statuses import POLLED
from portal.gateway.payments.words import PaymentStatus
from portal.gateway.retry import RATE_LIMITED

#: Reads in a row at the job's own period before the waits grow.
STEADY_READS = 5
#: The longest wait between two reads of one payment.
LONGEST_WAIT = timedelta(hours=1)
#: The poll job's period when no setting says (PAYMENT_POLL_SECONDS's default).
DEFAULT_PERIOD = timedelta(seconds=60)
#: The gateway asks for no faster reads of one payment (reference/rate-limits).
SHORTEST_GAP = timedelta(seconds=5)
#: How long a payment declined for now is read again (CONDITIONAL_DECLINE_HOURS's default).
DEFAULT_LATE_WINDOW = timedelta(hours=72)


@dataclass(frozen=True)
class PollRules:
    """How often a payment is read, and how long one declined for now is read again."""

    period: timedelta = DEFAULT_PERIOD
    late_window: timedelta = DEFAULT_LATE_WINDOW


#: The rules when no setting says.
DEFAULT_RULES = PollRules()


def rules_of(settings: Settings) -> PollRules:
    """The poll rules the settings ask for."""
    return PollRules(timedelta(seconds=settings.payment_poll_seconds),
                     timedelta(hours=settings.conditional_decline_hours))


def needs_polling(payment: Payment, now: datetime, rules: PollRules = DEFAULT_RULES) -> bool:
    """Whether the payment can still move without an action of ours, or a call of ours lost
    its answer: a conditional decline only within the late window (a word the portal does not
    know leaves the status, and so the polling, where they were)."""
    if payment.action_state != ActionState.IDLE:
        return True
    if payment.gid is None or payment.status not in POLLED:
        return False
    until = read_again_until(payment, rules)
    return until is None or now < until


def read_again_until(payment: Payment, rules: PollRules = DEFAULT_RULES) -> datetime | None:
    """Until when a payment declined for now is read again (None for any other payment)."""
    if payment.status != PaymentStatus.CONDITIONAL_DECLINE:
        return None
    return (payment.soft_declined_at or payment.created_at) + rules.late_window


def wait_after(unchanged: int, period: timedelta) -> timedelta:
    """How long to wait after ``unchanged`` reads in a row changed nothing."""
    doublings = max(0, unchanged - STEADY_READS + 1)
    return min(period * 2 ** min(doublings, 20), LONGEST_WAIT)


def due_now(payment: Payment, now: datetime) -> None:
    """Read this payment at the poll job's next run (it was just created or just changed)."""
    payment.unchanged_polls = 0
    payment.next_poll_at = now if needs_polling(payment, now) else None


def after_read(payment: Payment, moved: bool, now: datetime,
               rules: PollRules = DEFAULT_RULES) -> None:
    """Schedule the next read after one that did (``moved``) or did not change the payment."""
    payment.last_read_at = now
    payment.rate_limited_reads = 0
    if not needs_polling(payment, now, rules):
        payment.next_poll_at = None
        return
    payment.unchanged_polls = 0 if moved else payment.unchanged_polls + 1
    payment.next_poll_at = now + max(wait_after(payment.unchanged_polls, rules.period),
                                     SHORTEST_GAP)


def after_rate_limit(payment: Payment, now: datetime, retry_after: float | None,
                     rng: random.Random | None = None) -> None:
    """The gateway asked us to slow down: the next read waits 1, 2, 4, 8, then 16 s (each
    within 20%), or what its Retry-After said."""
    payment.last_read_at = now
    payment.rate_limited_reads += 1
    seconds = (retry_after if retry_after is not None
               else RATE_LIMITED.delay(min(payment.rate_limited_reads, 5), rng))
    payment.next_poll_at = now + max(timedelta(seconds=seconds), SHORTEST_GAP)


def too_soon(payment: Payment, now: datetime) -> bool:
    """Whether the payment was read less than :data:`SHORTEST_GAP` ago."""
    return payment.last_read_at is not None and now - payment.last_read_at < SHORTEST_GAP
