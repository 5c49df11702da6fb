"""Which way a payment's status may move on the gateway's word: forward only, as the status
table (``portal.core.payment_statuses``) places each status.

A status read (the page's Refresh, the customer's return, the worker's poll) can arrive after a
newer fact: an older answer must never take a payment back (a captured payment shown as
authorised would offer a second capture). A word the portal does not know moves nothing; it is
kept as the gateway's word (``Payment.gateway_status``) and shown.
"""

from __future__ import annotations

from portal.core.payment_statuses import row_of


def may_move(old: str, new: str, *, reversal_sent: bool = False) -> bool:
    """Whether a payment at ``old`` may take the gateway's ``new``: forward only. An end stays
    an end unless its row says what it may still turn into. ``reversal_sent``: the portal sent
    this payment's reversal (CANCELLED then means released)."""
    before, after = row_of(old), row_of(new)
    if new == old or before is None or after is None:
        return False
    if after.only_after_reversal and not reversal_sent:
        return False
    if new in before.turns_into:
        return True
    if before.path is None:
        return False
    if after.path is not None:
        return after.path > before.path
    return after.reached_from is not None and before.path <= after.reached_from
