"""Which steps the gateway no longer lets change, derived from its last answer."""

from __future__ import annotations

import re

from portal.core.labels import label
from portal.core.models.merchant import CreateState, Merchant
from portal.core.onboarding_statuses import FINAL_STATUSES, VERIFIED_STATUSES
from portal.domain.onboarding.reopened import reopened
from portal.domain.onboarding.steps import Lock, Step
from portal.gateway.onboarding.checklist_words import checklist_done

_LOCK_MESSAGE = re.compile(r"\block(ed)?\b|cannot be (changed|updated) after", re.IGNORECASE)

TNC_REASON = ("The merchant acknowledged the terms and conditions: the gateway no longer "
              "accepts changes to business details and the authorised signatory.")
VERIFICATION_REASON = ("The merchant completed verification: the gateway no longer accepts "
                       "changes to beneficial owners, bank details and documents.")


def tnc_acknowledged(merchant: Merchant) -> bool:
    """Whether the stored checklist says the T&C were acknowledged."""
    return checklist_done(merchant.checklist.get("tncAcknowledged"))


def verification_complete(merchant: Merchant) -> bool:
    """Whether video KYC is complete or the status is past verification."""
    return (checklist_done(merchant.checklist.get("vkyc"))
            or merchant.status in VERIFIED_STATUSES)


def lock_reason(merchant: Merchant, step: Step) -> str | None:
    """Why ``step`` is read-only for ``merchant`` now, or None if it can still change (the
    gateway reset the record for a change request of its section: open for that change)."""
    reason = locked_because(merchant, step)
    if reason and reopened(merchant, step.key):
        return None
    return reason


def locked_because(merchant: Merchant, step: Step) -> str | None:
    """Why ``step`` is locked for ``merchant``, whatever a change request reopened."""
    if merchant.status in FINAL_STATUSES:
        return (f"The onboarding is {label(merchant.status).lower()}: nothing can change "
                "any more.")
    if step.creates_record and merchant.create_state == CreateState.CREATED:
        return (f"Created at the gateway as {merchant.onboarding_id}: the external id and the "
                "PAN are fixed.")
    if step.lock == Lock.TNC and tnc_acknowledged(merchant):
        return TNC_REASON
    if step.lock == Lock.VERIFICATION and verification_complete(merchant):
        return VERIFICATION_REASON
    return None


def says_locked(message: str) -> bool:
    """Whether a gateway refusal's message says the section is locked."""
    return bool(_LOCK_MESSAGE.search(message))
