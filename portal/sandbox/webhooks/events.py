"""The onboarding webhooks' payloads (docs/gateway-facts.md A8): a flat JSON object of strings.

Every payload carries ``onboarding_id``, ``onboarding_status``, ``event_timestamp`` (epoch
milliseconds), ``status`` (the event name) and the event's own keys. The sandbox adds
``event_id``, unique per event and identical across redeliveries, so a receiver can deduplicate.

An approval is one MERCHANT_STATUS_ACCEPTED in the contract's dialect; the docs' dialect adds
one MERCHANT_<PRODUCT>_ACCEPTED per product asked for (MCA first, with its
VIRTUAL_ACCOUNT_PROVISIONED, then cards), all naming the same ``merchant_id``.

The gateway documents no rejection event. The sandbox reports a rejection as
``MERCHANT_PENDENCY_STATUS_UPDATED`` with ``pendency_info_status`` ``REJECTED`` and
``onboarding_status`` ``REJECTED``; an RFI as the same event with ``pendency_info_status`` ``OPEN``
naming the document to upload.
"""

from __future__ import annotations

import secrets

from portal.gateway.onboarding.events import (
    MERCHANT_ID_KEY,
    UCIC_ID_KEY,
    PendencyKey,
    WebhookEventName,
    WebhookKey,
)
from portal.gateway.onboarding.vocabulary import OnboardingStatus

#: The fixed extra keys of the verification-step events.
STEP_KEYS: dict[WebhookEventName, dict[str, str]] = {
    WebhookEventName.TNC_ACKNOWLEDGED: {"terms_and_conditions_acknowledged": "true"},
    WebhookEventName.DIGILOCKER_COMPLETED: {"digilocker_ckyc_completed": "true"},
    WebhookEventName.VKYC_COMPLETED: {"vkyc_completed": "true"},
}


def new_event_id() -> str:
    """A fresh, unguessable event id (a sandbox addition)."""
    return "evt_" + secrets.token_hex(12)


def payload(event: WebhookEventName, onboarding_id: str, status: str, now_ms: int,
            extra: dict[str, str]) -> dict[str, str]:
    """The payload of one event: the common keys, ``event_id`` and ``extra``."""
    return {
        WebhookKey.EVENT_ID: new_event_id(),
        WebhookKey.ONBOARDING_ID: onboarding_id,
        WebhookKey.ONBOARDING_STATUS: str(status),
        WebhookKey.EVENT_TIMESTAMP: str(now_ms),
        WebhookKey.EVENT_NAME: str(event),
        **extra,
    }


def new_merchant_id() -> str:
    """A merchant id the approval assigns (``merchant_id``)."""
    return f"UCIC{secrets.randbelow(10**10):010d}"


def new_ucic_id() -> str:
    """The virtual account's other id (``ucic_id``), never the merchant id."""
    return f"UC{secrets.randbelow(10**8):08d}"


def accepted_keys(merchant_id: str) -> dict[str, str]:
    """An acceptance event's own key: the merchant id the gateway assigned."""
    return {MERCHANT_ID_KEY: merchant_id}


def provisioned_keys(merchant_id: str, ucic_id: str) -> dict[str, str]:
    """VIRTUAL_ACCOUNT_PROVISIONED's keys: two ids, and the flag."""
    return {MERCHANT_ID_KEY: merchant_id, UCIC_ID_KEY: ucic_id,
            "virtual_account_provisioned": "true"}


def pendency_keys(status: str, category: str, sub_category: str, reason: str,
                  now_ms: int, blocks: tuple[bool, bool] = (True, True)) -> dict[str, str]:
    """MERCHANT_PENDENCY_STATUS_UPDATED's ``pendency_info_*`` keys; ``blocks``: whether it
    holds up the cards approval and the MCA approval."""
    cards, mca = ("true" if flag else "false" for flag in blocks)
    return {
        PendencyKey.CATEGORY: category,
        PendencyKey.SUB_CATEGORY: sub_category,
        PendencyKey.REASON: reason,
        PendencyKey.STATUS: status,
        PendencyKey.CREATION_TIME: str(now_ms),
        PendencyKey.CARDS_APPROVAL_BLOCKING: cards,
        PendencyKey.MCA_APPROVAL_BLOCKING: mca,
    }


def cards_blocked_keys(now_ms: int) -> dict[str, str]:
    """The pendency that keeps a ``CARDSBLOCKED`` merchant's cards approval waiting."""
    return pendency_keys("OPEN", "COMPLIANCE", "WEBSITE_POLICIES",
                         "The website must show its refund and cancellation policies before "
                         "cards can be enabled", now_ms, blocks=(True, False))


def review_event(outcome: OnboardingStatus, requested_documents: list[str],
                 now_ms: int, website_gaps: list[str] | None = None
                 ) -> tuple[WebhookEventName, dict[str, str]]:
    """The event and extra keys reporting a review that did not approve (RFI or REJECTED);
    an RFI for the website's gaps (and no document) names them."""
    if outcome is OnboardingStatus.RFI and website_gaps and not requested_documents:
        return WebhookEventName.PENDENCY_UPDATED, pendency_keys(
            "OPEN", "COMPLIANCE", "WEBSITE_POLICIES",
            f"The website must show {', '.join(website_gaps)}", now_ms)
    if outcome is OnboardingStatus.RFI:
        documents = ",".join(requested_documents)
        return WebhookEventName.PENDENCY_UPDATED, pendency_keys(
            "OPEN", "DOCUMENT", documents, f"Upload {documents} to continue the review", now_ms)
    return WebhookEventName.PENDENCY_UPDATED, pendency_keys(
        "REJECTED", "COMPLIANCE", "REVIEW", "Rejected after the compliance review", now_ms)
