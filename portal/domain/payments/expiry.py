"""When an authorised hold expires, and which holds are close to it.

The issuer releases an uncaptured authorisation after a while (HOLD_EXPIRY_HOURS; the gateway
does not document it, 7 days is the card networks' usual). A hold not captured within its last
HOLD_WARNING_HOURS is flagged on the payments pages and the dashboard, so ops capture or
release it before the money is gone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, and_, func, select

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.payment import Payment
from portal.gateway.payments.words import PaymentStatus

#: The payments list's filter value for holds close to expiry.
EXPIRING = "expiring"
#: The most holds close to expiry the dashboard counts (as the lists count their matches): a
#: count that stays bounded however many holds there are.
COUNT_CAP = 1000


@dataclass(frozen=True)
class HoldExpiry:
    """When a hold expires and how close that is."""

    expires_at: datetime
    hours_left: int
    #: Within the warning window (or past the expiry, until a status read says EXPIRED).
    soon: bool


def lifetime(settings: Settings) -> timedelta:
    """How long an authorisation holds the funds."""
    return timedelta(hours=settings.hold_expiry_hours)


def warned_after(settings: Settings) -> timedelta:
    """How long after its authorisation a hold is flagged."""
    return max(lifetime(settings) - timedelta(hours=settings.hold_warning_hours), timedelta(0))


def expiry_of(payment: Payment, settings: Settings, now: datetime) -> HoldExpiry | None:
    """The expiry of an authorised, uncaptured hold; None for any other payment."""
    if payment.status != PaymentStatus.AUTHORIZED or payment.authorized_at is None:
        return None
    expires_at = payment.authorized_at + lifetime(settings)
    left = expires_at - now
    return HoldExpiry(expires_at, max(0, math.ceil(left.total_seconds() / 3600)),
                      payment.authorized_at + warned_after(settings) <= now)


def expiring_soon(settings: Settings, now: datetime) -> ColumnElement[bool]:
    """The filter of authorised holds within their warning window."""
    return authorised_by(now - warned_after(settings))


def authorised_by(moment: datetime | ColumnElement[datetime]) -> ColumnElement[bool]:
    """The filter of authorised holds authorised at ``moment`` or before (a value, or a bound
    parameter of a statement built once)."""
    return and_(Payment.status == PaymentStatus.AUTHORIZED, Payment.authorized_at <= moment)


def expiring_count(settings: Settings, now: datetime) -> int:
    """How many authorised holds are within their warning window, counting no further than one
    past ``COUNT_CAP``."""
    matches = select(Payment.id).where(expiring_soon(settings, now)).limit(COUNT_CAP + 1)
    return db.session.scalar(select(func.count()).select_from(matches.subquery())) or 0
