"""The worker's handler of account mail jobs (``portal.domain.jobs.account_mail``): a reset link, or
the invitation of an administrator added by approval."""

from __future__ import annotations

from portal.core.config import current_settings
from portal.domain.jobs.account_mail import RESET
from portal.domain.jobs.queue import JobEnd, JobRun
from portal.features.team import reset


def run_account_mail(run: JobRun) -> JobEnd:
    """Send the email the job names (at most once: see ``reset.mail_reset``)."""
    settings = current_settings()
    if run.payload["purpose"] == RESET:
        reset.mail_reset(settings, run.payload["request"], run.attempt)
    else:
        reset.mail_invitation(settings, run.payload["user"], run.payload.get("inviter"),
                              run.attempt)
    return JobEnd.DONE
