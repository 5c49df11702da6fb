"""Daily reminders to merchants whose onboarding waits for their own verification.

A merchant in PENDING_VERIFICATION for over a day gets a reminder with a fresh link, at most
once a day (24 hours apart) and at most REMINDER_MAX times; each one is audited.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models import Merchant, StatusChange, VerificationReminder
from portal.domain.audit.service import Actor, record
from portal.domain.merchant_mail.delivery import DeliveryError, email_link
from portal.domain.onboarding.signatory import signatory_of
from portal.gateway.onboarding.vocabulary import OnboardingStatus

WAITING = OnboardingStatus.PENDING_VERIFICATION.value
#: How long a merchant waits before the first reminder, and between two reminders.
INTERVAL = timedelta(days=1)
TEMPLATE = "verification_reminder"
ACTOR = Actor("reminders")


@dataclass
class ReminderReport:
    """What one run did."""

    sent: int = 0
    failed: int = 0
    no_email: int = 0

    def summary(self) -> str:
        """One line for the log."""
        return (f"reminders: {self.sent} sent, {self.failed} failed, "
                f"{self.no_email} merchants without a signatory email")


def waiting_since(merchant: Merchant) -> datetime:
    """When the merchant last entered PENDING_VERIFICATION (its last activity if unrecorded)."""
    entered = db.session.scalar(select(func.max(StatusChange.at)).where(
        StatusChange.merchant_id == merchant.id, StatusChange.to_status == WAITING))
    return entered or merchant.last_activity_at


def reminders_sent(merchant: Merchant) -> list[datetime]:
    """When the merchant was reminded, oldest first."""
    return list(db.session.scalars(
        select(VerificationReminder.sent_at).where(VerificationReminder.merchant_id == merchant.id)
        .order_by(VerificationReminder.sent_at)))


def is_due(merchant: Merchant, now: datetime, limit: int) -> bool:
    """True when a reminder may go out now: waited a day, under the limit, none in 24 hours."""
    sent = reminders_sent(merchant)
    return (now - waiting_since(merchant) >= INTERVAL and len(sent) < limit
            and (not sent or now - sent[-1] >= INTERVAL))


def send_reminders(settings: Settings) -> ReminderReport:
    """Email every merchant that is due a reminder (commits after each one)."""
    report = ReminderReport()
    now = clock.utcnow()
    waiting = list(db.session.scalars(
        select(Merchant).where(Merchant.status == WAITING, Merchant.deactivated_at.is_(None))
        .order_by(Merchant.id)))
    for merchant in waiting:
        if not is_due(merchant, now, settings.reminder_max):
            continue
        if signatory_of(merchant) is None:
            report.no_email += 1
            continue
        try:
            to = email_link(settings, merchant, TEMPLATE, ACTOR)
        except DeliveryError:
            report.failed += 1
            continue
        number = len(reminders_sent(merchant)) + 1
        db.session.add(VerificationReminder(merchant_id=merchant.id, sent_at=now))
        record("verification.reminder", actor=ACTOR, merchant_id=merchant.id,
               detail={"to": to, "number": number, "limit": settings.reminder_max})
        db.session.commit()
        report.sent += 1
    return report
