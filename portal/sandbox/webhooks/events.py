"""The onboarding webhooks' payloads (gateway-facts A8): a flat JSON object of strings.

Every payload carries ``onboarding_id``, ``onboarding_status``, ``event_timestamp`` (epoch
milliseconds), ``status`` (the event name) and the event's own keys. The sandbox adds
``event_id``, unique per event and identical across redeliveries, so a receiver can deduplicate.

The gateway documents no rejection event. The sandbox reports a rejection as
``MERCHANT_PENDENCY_STATUS_UPDATED`` with ``pendency_info_status`` ``REJECTED`` and
``onboarding_status`` ``REJECTED``; an RFI as the same event with ``pendency_info_status`` ``OPEN``
naming the document to upload.
"""

from __future__ import annotations

import secrets

from portal.gateway.onboarding_events import WebhookEventName, WebhookKey
from portal.gateway.onboarding_shapes import OnboardingStatus

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


def accepted_keys() -> dict[str, str]:
    """MERCHANT_STATUS_ACCEPTED's key: the merchant id (UCIC) the gateway assigns."""
    return {"merchant_id": f"UCIC{secrets.randbelow(10**10):010d}"}


def pendency_keys(status: str, category: str, sub_category: str, reason: str,
                  now_ms: int) -> dict[str, str]:
    """MERCHANT_PENDENCY_STATUS_UPDATED's ``pendency_info_*`` keys."""
    return {
        "pendency_info_category": category,
        "pendency_info_sub_category": sub_category,
        "pendency_info_reason": reason,
        "pendency_info_status": status,
        "pendency_info_creation_time": str(now_ms),
        "pendency_info_cards_approval_blocking": "true",
        "pendency_info_mca_approval_blocking": "true",
    }


def review_event(outcome: OnboardingStatus, requested_documents: list[str],
                 now_ms: int) -> tuple[WebhookEventName, dict[str, str]]:
    """The event and extra keys reporting a review's outcome (APPROVED, RFI or REJECTED)."""
    if outcome is OnboardingStatus.APPROVED:
        return WebhookEventName.STATUS_ACCEPTED, accepted_keys()
    if outcome is OnboardingStatus.RFI:
        documents = ",".join(requested_documents)
        return WebhookEventName.PENDENCY_UPDATED, pendency_keys(
            "OPEN", "DOCUMENT", documents, f"Upload {documents} to continue the review", now_ms)
    return WebhookEventName.PENDENCY_UPDATED, pendency_keys(
        "REJECTED", "COMPLIANCE", "REVIEW", "Rejected after the compliance review", now_ms)
