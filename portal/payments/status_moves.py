"""Which way a payment's status may move on the gateway's word: forward only.

A status read (the page's Refresh, the customer's return, the worker's poll) can arrive after a
newer fact: an older answer must never take a payment back (a captured payment shown as
authorised would offer a second capture). A word the portal does not know moves nothing; it is
kept as the gateway's word (``Payment.gateway_status``) and shown.
"""

from __future__ import annotations

from portal.core.models.payment import PENDING
from portal.gateway.payments_shapes import PaymentStatus

#: The path of a payment that goes well, in order.
_PATH = {PENDING: 0, PaymentStatus.CREATED: 1, PaymentStatus.INPROGRESS: 2,
         PaymentStatus.AUTHORIZED: 3, PaymentStatus.SENT_FOR_CAPTURE: 4,
         PaymentStatus.SENT_FOR_REFUND: 5}
#: Ends a payment can reach while the customer is still on the hosted page (or before).
_ENDS_BEFORE_AUTHORISATION = frozenset({
    PaymentStatus.ISSUER_DECLINE, PaymentStatus.AUTHENTICATION_FAILED,
    PaymentStatus.CUSTOMER_CANCELLED, PaymentStatus.ABANDONED, PaymentStatus.SYSTEM_ERROR})
#: Ends of an authorised hold that was not captured.
_ENDS_OF_A_HOLD = frozenset({PaymentStatus.REVERSED, PaymentStatus.EXPIRED})
#: Statuses from which the payment moves on without an action of ours.
WAITING = frozenset({PENDING, PaymentStatus.CREATED, PaymentStatus.INPROGRESS,
                     PaymentStatus.AUTHORIZED})


def known(word: str) -> bool:
    """Whether ``word`` is a payment status the portal knows."""
    return word in PaymentStatus.__members__


def may_move(old: str, new: str) -> bool:
    """Whether a payment at ``old`` may take the gateway's ``new``: forward only."""
    if new == old or not known(new):
        return False
    if old in _PATH and new in _PATH:
        return _PATH[new] > _PATH[old]
    if old not in _PATH:  # an end stays an end
        return False
    if new in _ENDS_BEFORE_AUTHORISATION:
        return _PATH[old] < _PATH[PaymentStatus.AUTHORIZED]
    return new in _ENDS_OF_A_HOLD and _PATH[old] <= _PATH[PaymentStatus.AUTHORIZED]
