"""What the gateway last said was pending on a merchant, and why: the ``pendency_info_*`` keys of
its latest MERCHANT_PENDENCY_STATUS_UPDATED webhook, as the portal stored the event.

The gateway's status answer carries no reason; a rejection's reason (and an RFI's request)
arrives only in that event. A merchant whose events never came has none.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import select

from portal.db import db
from portal.gateway.onboarding_events import WebhookEventName
from portal.models.merchant import Merchant
from portal.models.webhook_event import WebhookEvent

PREFIX = "pendency_info_"


@dataclass(frozen=True)
class Pendency:
    """One pendency as the gateway worded it."""

    status: str
    category: str
    sub_category: str
    reason: str

    @property
    def topic(self) -> str:
        """Its category and sub-category in words, e.g. "Compliance, review"."""
        parts = [p.replace("_", " ").lower() for p in (self.category, self.sub_category) if p]
        return ", ".join(parts).capitalize()


def latest_pendency(merchant: Merchant) -> Pendency | None:
    """The merchant's latest pendency the gateway reported, or None."""
    if not merchant.onboarding_id:
        return None
    event = db.session.scalars(
        select(WebhookEvent)
        .where(WebhookEvent.onboarding_id == merchant.onboarding_id,
               WebhookEvent.event_name == WebhookEventName.PENDENCY_UPDATED)
        .order_by(WebhookEvent.received_at.desc(), WebhookEvent.id.desc()).limit(1)).first()
    if event is None:
        return None
    try:
        payload = json.loads(event.body)
    except ValueError:
        return None
    if not isinstance(payload, dict):
        return None
    fields = {key: str(payload.get(PREFIX + key) or "").strip()[:500]
              for key in ("status", "category", "sub_category", "reason")}
    return Pendency(**fields)
