"""The table of payment statuses: one row per status, and everything the portal does with a
payment in that status read from its row.

The forward-only moves (``portal.domain.payments.status_moves``), the poll, refunds, the customer's
result page, the badges and the labels all derive from :data:`ROWS`. Adding a status is a row
here (its word in ``portal.gateway.payments.words``, and the sandbox if it should produce it);
``tests/core/test_payment_statuses.py`` fails on a word without a row.
"""

from __future__ import annotations

from dataclasses import dataclass

from portal.core.models.payment import PENDING
from portal.gateway.onboarding.checklist_words import Badge
from portal.gateway.payments.words import FINAL_FAILURES, PaymentStatus

#: Places on the forward path of a payment that goes well.
WAITING_FOR_GATEWAY, CREATED, IN_PROGRESS, HELD, CAPTURING, CAPTURED, REFUNDING = range(7)


@dataclass(frozen=True)
class StatusRow:
    """One payment status.

    ``path``: its place on the forward path, None for an end. ``reached_from``: for an end, the
    furthest place on the path it may follow. ``turns_into``: the statuses an end may still
    become (a conditional decline that authorises later). ``polled``: the payment can move on
    its own, so the worker reads it again. ``authorised``: the amount was held at some point.
    ``customer_approved``: the customer's result page says the payment went through.
    ``only_after_reversal``: the word means "released" only for a payment whose reversal the
    portal sent; otherwise it is kept and shown, and moves nothing.
    """

    code: str
    label: str
    badge: Badge
    path: int | None
    reached_from: int | None
    turns_into: frozenset[str]
    polled: bool
    refundable: bool
    authorised: bool
    customer_approved: bool
    only_after_reversal: bool


def _on_path(code: str, label: str, badge: Badge, path: int, *, polled: bool = False,
             refundable: bool = False, authorised: bool = False) -> StatusRow:
    return StatusRow(code, label, badge, path, None, frozenset(), polled, refundable,
                     authorised, authorised, False)


def _end(code: str, label: str, badge: Badge, reached_from: int, *, authorised: bool = False,
         turns_into: frozenset[str] = frozenset(), polled: bool = False,
         only_after_reversal: bool = False) -> StatusRow:
    return StatusRow(code, label, badge, None, reached_from, turns_into, polled, False,
                     authorised, False, only_after_reversal)


_FAILURE_LABELS = {
    PaymentStatus.ISSUER_DECLINE: "Declined by the card issuer",
    PaymentStatus.DECLINED: "Declined",
    PaymentStatus.FAILED: "Failed",
    PaymentStatus.GENERAL_DECLINE: "Declined",
    PaymentStatus.REQUEST_ERROR: "Refused by the gateway (request error)",
    PaymentStatus.SYSTEM_ERROR: "Gateway system error",
    PaymentStatus.SYSTEM_DECLINED: "Declined by the gateway's system",
    PaymentStatus.AUTHENTICATION_TIMEOUT: "Card authentication timed out",
    PaymentStatus.AUTHENTICATION_FAILED: "Authentication failed",
    PaymentStatus.CONFIG_ERROR: "Gateway configuration error",
    PaymentStatus.RULE_CONFIG_ERROR: "Gateway rule configuration error",
    PaymentStatus.CUSTOMER_CANCELLED: "Cancelled by the customer",
    PaymentStatus.ABANDONED: "Abandoned",
    PaymentStatus.PRE_PAYNOW_ABANDONED: "Abandoned before paying",
    PaymentStatus.EXPIRED: "Expired",
    PaymentStatus.MARKED_AS_FRAUD: "Stopped as suspected fraud",
    PaymentStatus.ALTPAY_DECLINE: "Declined by the payment method",
}
#: Failures that are the customer's choice or time running out, not a refusal: not red.
_QUIET_FAILURES = frozenset({PaymentStatus.CUSTOMER_CANCELLED, PaymentStatus.ABANDONED,
                             PaymentStatus.PRE_PAYNOW_ABANDONED, PaymentStatus.EXPIRED})


def _failure(code: str) -> StatusRow:
    """A final failure: reached before or at the authorisation (EXPIRED: a hold runs out)."""
    badge = Badge.NEUTRAL if code in _QUIET_FAILURES else Badge.DANGER
    reached_from = HELD if code == PaymentStatus.EXPIRED else IN_PROGRESS
    return _end(code, _FAILURE_LABELS[code], badge, reached_from)


ROWS: dict[str, StatusRow] = {row.code: row for row in (
    _on_path(PENDING, "Waiting for the gateway's answer", Badge.NEUTRAL, WAITING_FOR_GATEWAY,
             polled=True),
    _on_path(PaymentStatus.CREATED, "Created", Badge.NEUTRAL, CREATED, polled=True),
    _on_path(PaymentStatus.INPROGRESS, "In progress", Badge.NEUTRAL, IN_PROGRESS, polled=True),
    _on_path(PaymentStatus.AUTHORIZED, "Authorised (held)", Badge.SUCCESS, HELD, polled=True,
             authorised=True),
    _on_path(PaymentStatus.CAPTURE_STARTED, "Capture started", Badge.SUCCESS, CAPTURING,
             refundable=True, authorised=True),
    _on_path(PaymentStatus.SENT_FOR_CAPTURE, "Captured", Badge.SUCCESS, CAPTURING,
             refundable=True, authorised=True),
    _on_path(PaymentStatus.CAPTURED, "Captured", Badge.SUCCESS, CAPTURED, refundable=True,
             authorised=True),
    _on_path(PaymentStatus.SENT_FOR_REFUND, "Refunded (in part or in full)", Badge.NEUTRAL,
             REFUNDING, refundable=True, authorised=True),
    _end(PaymentStatus.REVERSED, "Released", Badge.NEUTRAL, HELD, authorised=True),
    _end(PaymentStatus.CANCELLED, "Released", Badge.NEUTRAL, HELD, authorised=True,
         only_after_reversal=True),
    _end(PaymentStatus.CONDITIONAL_DECLINE, "Declined for now (may still be authorised)",
         Badge.WARNING, IN_PROGRESS, polled=True,
         turns_into=frozenset({PaymentStatus.AUTHORIZED, *FINAL_FAILURES})),
    *(_failure(code) for code in sorted(FINAL_FAILURES)),
)}


def row_of(code: str) -> StatusRow | None:
    """The row of a status, or None for a word the portal does not know."""
    return ROWS.get(code)


def codes_where(**columns: object) -> frozenset[str]:
    """The statuses whose rows have these column values, e.g. ``refundable=True``."""
    return frozenset(code for code, row in ROWS.items()
                     if all(getattr(row, name) == value for name, value in columns.items()))


#: Statuses a refund may follow.
REFUNDABLE = codes_where(refundable=True)
#: Statuses of a payment whose amount was held at some point (held, captured, released).
AUTHORISED = codes_where(authorised=True)
#: Statuses the customer's result page calls a payment that went through.
CUSTOMER_APPROVED = codes_where(customer_approved=True)
#: Statuses from which a payment moves on without an action of ours.
POLLED = codes_where(polled=True)
#: The labels, for the ``label`` filter.
LABELS: dict[str, str] = {code: row.label for code, row in ROWS.items()}
