"""The periodic refresh: link the lost creates that webhooks named (and move the bulk rows that
waited on them), re-read open records' statuses, finish webhook events.

``flask --app app sync`` runs one pass now, then sends the reminders that are due; the workers
(``flask --app app worker``) run the pass periodically as a job, and the reminders as another.
"""

from __future__ import annotations

from dataclasses import dataclass

import click
from flask.cli import with_appcontext
from sqlalchemy import or_, select

from portal.core.clients import onboarding_client
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.status_change import StatusSource
from portal.core.onboarding_statuses import FINAL_STATUSES
from portal.domain.audit.service import SYSTEM
from portal.domain.merchant_mail.reminders import send_reminders
from portal.domain.onboarding.reconcile import reconcile_from_webhooks
from portal.domain.onboarding.status_reads import read_status
from portal.features.bulk.settle import settle_linked_rows
from portal.features.webhooks.service import pending_events, process
from portal.gateway.onboarding.client import OnboardingClient


@dataclass
class SyncReport:
    """What one pass did."""

    read: int = 0
    moved: int = 0
    failed: int = 0
    events: int = 0
    reconciled: int = 0
    rows_linked: int = 0

    def summary(self) -> str:
        """One line for the log."""
        return (f"sync: {self.read} statuses read, {self.moved} moved, {self.failed} failed, "
                f"{self.events} webhook events pending before the pass; {self.reconciled} lost "
                f"creates reconciled; {self.rows_linked} bulk rows of unknown outcome linked")


def open_merchants() -> list[Merchant]:
    """Merchants created at the gateway whose status is not final."""
    return list(db.session.scalars(
        select(Merchant).where(Merchant.onboarding_id.is_not(None),
                               or_(Merchant.status.is_(None),
                                   Merchant.status.not_in([str(s) for s in FINAL_STATUSES])))
        .order_by(Merchant.id)))


def sync_once(client: OnboardingClient) -> SyncReport:
    """One pass: lost creates named by webhooks linked (then the bulk rows whose lost create
    is now linked), open records' statuses, webhooks. The outbox's queued sends are the
    worker's (``portal.app.worker.loop``), drained on its every pass, not here."""
    report = SyncReport(reconciled=reconcile_from_webhooks(client))
    report.rows_linked = settle_linked_rows()
    read_ok: set[str] = set()
    for merchant in open_merchants():
        read = read_status(client, merchant, StatusSource.POLL, SYSTEM)
        db.session.commit()
        report.read += 1
        report.moved += read.moved
        if read.ok:
            read_ok.add(merchant.onboarding_id or "")
        else:
            report.failed += 1
    events = pending_events()
    report.events = len(events)
    for event in events:
        process(client, event, frozenset(read_ok))
    return report


@click.command("sync")
@with_appcontext
def sync_command() -> None:
    """One pass now: link lost creates named by webhooks (and their bulk rows), read open
    onboardings' statuses, finish webhook events; then send due reminders (the workers run
    these by themselves; the outbox is theirs alone)."""
    click.echo(sync_once(onboarding_client(current_settings())).summary())
    click.echo(send_reminders(current_settings()).summary())
