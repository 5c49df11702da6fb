"""Email about an account, sent by a worker rather than inside a request: a password-reset link
(so a request for a known email does the same work as one for an unknown email) and the
invitation of an administrator added by approval. The handler is ``portal.features.team.mail_jobs``;
payloads hold ids only."""

from __future__ import annotations

from portal.core.models.job import Job
from portal.domain.jobs.queue import enqueue

KIND = "account_mail"
RESET = "reset"
INVITATION = "invitation"


def queue_reset(reset_request_id: int) -> Job:
    """Email the reset link a 'forgot password' request asked for, if its email is an active
    user's (the worker decides); in the caller's transaction."""
    return enqueue(KIND, {"purpose": RESET, "request": reset_request_id})


def queue_invitation(user_id: int, inviter_id: int | None) -> Job:
    """Email ``user_id`` a link to choose their password, naming ``inviter_id``; in the caller's
    transaction."""
    return enqueue(KIND, {"purpose": INVITATION, "user": user_id, "inviter": inviter_id})
