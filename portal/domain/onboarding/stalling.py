"""Which merchants stall: not final, and without progress for longer than STALE_AFTER_DAYS.
The dashboard counts and lists them; the merchants list filters by the same rule."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, and_, or_

from portal.core.models.merchant import Merchant
from portal.core.onboarding_statuses import FINAL_STATUSES


def stale_cutoff(stale_after_days: int, now: datetime) -> datetime:
    """The last activity before which a merchant that is not final stalls."""
    return now - timedelta(days=stale_after_days)


def stalling(cutoff: datetime) -> ColumnElement[bool]:
    """Merchants not final whose last activity is before ``cutoff``."""
    return and_(or_(Merchant.status.is_(None), Merchant.status.not_in(FINAL_STATUSES)),
                Merchant.last_activity_at < cutoff)
