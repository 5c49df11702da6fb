"""What runs each kind of job, and the periodic jobs every worker makes sure exist."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from portal.app.worker.sync import sync_once
from portal.core import clock
from portal.core.clients import current_onboarding_client
from portal.core.config import current_settings
from portal.core.storage.current import current_store
from portal.domain.documents.retention import delete_expired_files
from portal.domain.jobs import account_mail
from portal.domain.jobs.queue import JobEnd, JobRun
from portal.domain.merchant_mail.reminders import send_reminders
from portal.domain.partner_events.delivery import deliver_due
from portal.domain.payments.links.holding_again import RELEASE_KIND
from portal.domain.payments.links.release import release_held_again
from portal.domain.payments.status_poll import poll_once
from portal.domain.website_check import job as website_job
from portal.features.bulk import import_job
from portal.features.notifications.delivery import deliver
from portal.features.team.mail_jobs import run_account_mail

log = logging.getLogger("portal.worker")

SYNC = "sync"
REMINDERS = "reminders"
RETENTION = "retention"
PAYMENT_POLL = "payment_poll"
NOTICES = "notices"
PARTNER_WEBHOOKS = "partner_webhooks"


def run_sync(_run: JobRun) -> JobEnd:
    """The periodic status sync (the outbox's catch-up, open statuses, webhook events)."""
    log.info(sync_once(current_onboarding_client()).summary())
    return JobEnd.DONE


def run_reminders(_run: JobRun) -> JobEnd:
    """The scheduled verification reminders."""
    log.info(send_reminders(current_settings()).summary())
    return JobEnd.DONE


def run_retention(_run: JobRun) -> JobEnd:
    """Delete the document files kept past DOCUMENT_RETENTION_DAYS (0: keep every file)."""
    settings = current_settings()
    deleted = delete_expired_files(current_store(), settings.document_retention_days,
                                   clock.utcnow())
    log.info("retention: %d document files deleted", deleted)
    return JobEnd.DONE


def run_payment_poll(_run: JobRun) -> JobEnd:
    """Read the gateway's status of the payments whose outcome is not final yet."""
    log.info(poll_once(current_settings(), clock.utcnow()).summary())
    return JobEnd.DONE


def run_notices(run: JobRun) -> JobEnd:
    """Email the notices due: each at once, or the daily digests (portal.features.notifications)."""
    log.info(deliver(current_settings(), clock.utcnow(), run.stopping).summary())
    return JobEnd.DONE


def run_partner_webhooks(run: JobRun) -> JobEnd:
    """Send the due webhooks to partners' endpoints (portal.domain.partner_events.delivery)."""
    report = deliver_due(current_settings().website_check_allow_loopback, run.lease, run.stopping)
    log.info(report.summary())
    return JobEnd.DONE


def run_website_check(run: JobRun) -> JobEnd:
    """Fetch and read a merchant's website (portal.domain.website_check)."""
    return website_job.run_check(int(run.payload["merchant_id"]),
                                 current_settings().website_check_allow_loopback)


def run_hold_again_release(run: JobRun) -> JobEnd:
    """Release the hold a newly authorised hold holds again (``holding_again``)."""
    release_held_again(current_settings(), int(run.payload["payment_id"]),
                       int(run.payload.get("attempt", 1)))
    return JobEnd.DONE


def nothing_to_undo(_payload: dict[str, Any]) -> None:
    """A job that leaves nothing behind when it is given up."""


@dataclass(frozen=True)
class Handler:
    """Runs a job; ``give_up`` tidies what a job left when its workers kept dying on it."""

    run: Callable[[JobRun], JobEnd]
    give_up: Callable[[dict[str, Any]], None] = nothing_to_undo


HANDLERS: dict[str, Handler] = {
    import_job.KIND: Handler(import_job.run_import, import_job.give_up),
    SYNC: Handler(run_sync),
    REMINDERS: Handler(run_reminders),
    RETENTION: Handler(run_retention),
    PAYMENT_POLL: Handler(run_payment_poll),
    NOTICES: Handler(run_notices),
    PARTNER_WEBHOOKS: Handler(run_partner_webhooks),
    account_mail.KIND: Handler(run_account_mail),
    website_job.KIND: Handler(run_website_check),
    RELEASE_KIND: Handler(run_hold_again_release),
}


@dataclass(frozen=True)
class Intervals:
    """How often the periodic jobs run (set when a schedule is first added)."""

    sync: timedelta = timedelta(seconds=60)
    reminders: timedelta = timedelta(hours=1)
    retention: timedelta = timedelta(days=1)
    payment_poll: timedelta = timedelta(seconds=60)
    #: Notices emailed at once wait this long at most (digests go once a day).
    notices: timedelta = timedelta(seconds=30)
    #: Webhooks to partners wait this long at most for their first try.
    partner_webhooks: timedelta = timedelta(seconds=5)

    def schedules(self) -> dict[str, timedelta]:
        """Each periodic job's name (also its kind) and interval."""
        return {SYNC: self.sync, REMINDERS: self.reminders, RETENTION: self.retention,
                PAYMENT_POLL: self.payment_poll, NOTICES: self.notices,
                PARTNER_WEBHOOKS: self.partner_webhooks}
