"""The merchant events, as their payloads say them: the ids the API uses (``/api/v1``), never a
PAN, an account number or the gateway's own words about a document. No commit."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from portal.core.labels import label
from portal.core.models.merchant import Merchant
from portal.domain.partner_events.catalogue import EventType
from portal.domain.partner_events.recording import add_event
from portal.gateway.onboarding.vocabulary import OnboardingStatus


def merchant_data(merchant: Merchant) -> dict[str, Any]:
    """Who the event is about, as ``GET /api/v1/merchants/{id}`` names it."""
    return {"merchantId": merchant.id, "externalOnboardingId": merchant.external_onboarding_id,
            "onboardingId": merchant.onboarding_id}


def status_changed(merchant: Merchant, before: str | None, after: str) -> None:
    """merchant.status_changed: the status moved from ``before`` to ``after``; a move to RFI
    (the gateway asks for more) is merchant.needs_action too."""
    add_event(EventType.MERCHANT_STATUS_CHANGED, {
        **merchant_data(merchant), "status": after, "statusLabel": label(after),
        "previousStatus": before})
    if after == OnboardingStatus.RFI:
        add_event(EventType.MERCHANT_NEEDS_ACTION, {
            **merchant_data(merchant), "reason": "rfi", "status": after})


def product_accepted(merchant: Merchant, product: str, accepted_at: datetime | None) -> None:
    """merchant.product_accepted: the gateway accepted the merchant for ``product``."""
    add_event(EventType.MERCHANT_PRODUCT_ACCEPTED, {
        **merchant_data(merchant), "product": product,
        "acceptedAt": accepted_at.isoformat() if accepted_at else None})


def needs_action(merchant: Merchant, category: str, status: str) -> None:
    """merchant.needs_action: the gateway reported a pendency of ``category`` (its sub-category
    and reason stay out: they may name an owner's PAN)."""
    add_event(EventType.MERCHANT_NEEDS_ACTION, {
        **merchant_data(merchant), "reason": "pendency", "category": category,
        "pendencyStatus": status})
