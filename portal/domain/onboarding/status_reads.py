"""Reading the status from the gateway, and the status in words for the pages.

Every way the portal learns of a status (the status page, the periodic sync, a webhook, the
verification page's completion message) ends here: a server-side ``get_status``, then
:func:`portal.domain.onboarding.gateway_record.apply_status_read` (only forward, always recorded).
"""

from __future__ import annotations

from dataclasses import dataclass

from portal.core.labels import label
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import Actor, record
from portal.domain.onboarding.gateway_record import apply_status_read
from portal.domain.onboarding.gateway_words import refusal_words
from portal.gateway.errors import GatewayError, GatewayUnavailable
from portal.gateway.onboarding.answers import MerchantData
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.onboarding.vocabulary import OnboardingStatus, known_status

#: What each status means, where its label alone does not say it.
MEANINGS = {
    OnboardingStatus.INITIATED: "no details sent yet",
    OnboardingStatus.PENDING_VERIFICATION: "waiting for the merchant's verification",
    OnboardingStatus.PENDING_REVIEW: "verified, under compliance review",
    OnboardingStatus.RFI: "the review asks for more information",
}


def describe(status: str | None) -> str:
    """A status in words with its meaning, e.g. 'Pending review (verified, under compliance
    review)'."""
    meaning = MEANINGS.get(status or "")
    return f"{label(status)} ({meaning})" if meaning else label(status)


def gateway_name(merchant: Merchant) -> str:
    """What the page adds when the gateway named the status otherwise, or a name not known."""
    named = merchant.gateway_status
    if not named or named == merchant.status:
        return ""
    if known_status(named) is None:
        return (f"The gateway reports the status {named}, which the portal does not know; "
                f"it keeps the last status it knows, {describe(merchant.status)}.")
    return f"The gateway calls this status “{label(named)}”."


@dataclass(frozen=True)
class StatusRead:
    """The outcome of one status read: what the gateway said and whether the record moved."""

    data: MerchantData | None
    moved: bool = False
    error: str = ""

    @property
    def ok(self) -> bool:
        """Whether the gateway answered."""
        return self.data is not None


def read_status(client: OnboardingClient, merchant: Merchant, source: str,
                actor: Actor) -> StatusRead:
    """Read the status server-side and apply it, audited as ``actor``'s; a failed read changes
    nothing; no commit."""
    if not merchant.onboarding_id:
        return StatusRead(None, error="The merchant is not created at the gateway yet.")
    try:
        data = client.get_status(merchant.onboarding_id)
    except GatewayUnavailable as exc:
        record("status.read", actor=actor, outcome="unavailable", merchant_id=merchant.id,
               gid=exc.gid,
               detail={"source": source, "error": exc.message})
        return StatusRead(None, error="The gateway could not be reached just now.")
    except GatewayError as exc:
        record("status.read", actor=actor, outcome="refused", merchant_id=merchant.id,
               gid=exc.gid,
               detail={"source": source, "error": exc.message})
        return StatusRead(None, error=refusal_words(exc, merchant.onboarding_id))
    moved = apply_status_read(merchant, data, source, actor=actor)
    return StatusRead(data, moved)
