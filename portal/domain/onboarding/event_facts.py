"""What one webhook event adds to a merchant beyond its status, by the event's name: kept only
from a verified event (docs/gateway-contract.md, "Webhooks you can trust"). An unverified one
has made the portal read the status, and that is all it does."""

from __future__ import annotations

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.webhook_event import WebhookEvent
from portal.domain.audit.service import Actor
from portal.domain.onboarding.merchant_facts import confirm_ids, keep_pendency
from portal.domain.onboarding.pendency_notices import blocked_approvals, pendency_notices
from portal.domain.onboarding.product_approvals import keep_acceptance
from portal.gateway.onboarding.events import WebhookEventName
from portal.gateway.onboarding.product_events import BY_EVENT, NAMING_THE_MERCHANT
from portal.gateway.onboarding.vocabulary import OnboardingStatus

UNVERIFIED = "; not verified: only the status was read, nothing the event carries was kept"


def keep(merchant: Merchant, event: WebhookEvent, actor: Actor) -> str:
    """Keep what ``event`` tells about ``merchant``, once its status read succeeded (or was not
    needed); what was kept, in words for the event's outcome ('' when nothing); no commit."""
    if not event.verified:
        return UNVERIFIED
    if event.event_name == WebhookEventName.PENDENCY_UPDATED:
        return _pendency(merchant, event, actor)
    kept = ""
    approval = BY_EVENT.get(event.event_name)
    if approval is not None:
        kept = (f"; {approval.product} acceptance kept"
                if keep_acceptance(merchant, event, approval, actor) else "")
    if event.event_name in NAMING_THE_MERCHANT:
        stored = confirm_ids(merchant, actor)
        kept += "".join(f"; {_ID_WORDS[column]} kept" for column in stored)
        if not stored and merchant.status != OnboardingStatus.APPROVED:
            kept += "; merchant id kept back until a status read says APPROVED"
    return kept


def _pendency(merchant: Merchant, event: WebhookEvent, actor: Actor) -> str:
    """Keep the pendency and tell the owner what it changes; no commit."""
    blocked_before = blocked_approvals(merchant)
    if not keep_pendency(merchant, event, actor):
        return ""
    db.session.add_all(pendency_notices(merchant, event, blocked_before))
    return "; pendency kept"


#: The merchant's id columns, as the event's outcome names them.
_ID_WORDS = {"gateway_mid": "merchant id", "gateway_ucic_id": "UCIC id"}
