"""Dormant merchants: live (approved, neither paused nor deactivated) for longer than the
setting's days, with no hold in that time; as one SQL condition, so the worklist, the merchants
list and the dashboard read it in their own statements."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import ColumnElement, and_, func, select

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.core.models.status_change import StatusChange
from portal.gateway.onboarding.vocabulary import OnboardingStatus

#: The moment before which nothing is ever dormant: the setting's 0 turns dormancy off.
NEVER = datetime(1970, 1, 1, tzinfo=UTC)


def dormant_cutoff(days: int, now: datetime) -> datetime:
    """A merchant with no hold since this moment is dormant (``NEVER`` when ``days`` is 0)."""
    return now - timedelta(days=days) if days > 0 else NEVER


def went_live() -> ColumnElement:
    """When each merchant (in its row) last became APPROVED; its creation if unrecorded."""
    return func.coalesce(select(func.max(StatusChange.at)).where(
        StatusChange.merchant_id == Merchant.id,
        StatusChange.to_status == OnboardingStatus.APPROVED).scalar_subquery(),
        Merchant.created_at)


def last_hold() -> ColumnElement:
    """When each merchant (in its row) last had a hold made, or None."""
    return select(func.max(Payment.created_at)).where(
        Payment.merchant_id == Merchant.id).scalar_subquery()


def dormant(cutoff: ColumnElement | datetime) -> ColumnElement[bool]:
    """Merchants live since before ``cutoff`` with no hold made since."""
    return and_(Merchant.status == OnboardingStatus.APPROVED,
                Merchant.payments_stopped_at.is_(None), Merchant.deactivated_at.is_(None),
                went_live() <= cutoff,
                ~select(Payment.id).where(Payment.merchant_id == Merchant.id,
                                          Payment.created_at > cutoff).exists())


def dormant_count(days: int, now: datetime) -> int:
    """How many merchants are dormant now (one statement)."""
    return db.session.scalar(select(func.count(Merchant.id)).where(
        dormant(dormant_cutoff(days, now)))) or 0
