"""What the merchant's owner is told of a pendency the gateway reported: during onboarding,
"a pendency reported"; once the merchant is live (approved, or accepted for a product), that a
product's approval is now blocked, or unblocked, by it, or else that a new pendency came after
acceptance. One notice per event: the approvals it blocks (or unblocks) named in its
``status``."""

from __future__ import annotations

from portal.core.models.merchant import Merchant
from portal.core.models.notice import Notice, NoticeKind
from portal.core.models.webhook_event import WebhookEvent
from portal.domain.onboarding.merchant_facts import OPEN, current_pendencies
from portal.domain.onboarding.product_approvals import acceptances, blocks, products_asked
from portal.gateway.onboarding.product_events import APPROVALS, COVERING, ApprovalProduct
from portal.gateway.onboarding.vocabulary import OnboardingStatus


def blocked_approvals(merchant: Merchant) -> set[ApprovalProduct]:
    """The approvals of the products ``merchant`` asked for (every one, when the portal does
    not know them) that an open pendency holds up now."""
    asked = products_asked(merchant)
    wanted = {COVERING[product].product for product in asked} if asked is not None \
        else {approval.product for approval in APPROVALS}
    open_rows = [row for row in current_pendencies(merchant) if row.status == OPEN]
    return {approval for approval in wanted if any(blocks(row, approval) for row in open_rows)}


def is_live(merchant: Merchant) -> bool:
    """Whether ``merchant`` went live: approved, or accepted for a product."""
    return merchant.status == OnboardingStatus.APPROVED or bool(acceptances(merchant))


def pendency_notices(merchant: Merchant, event: WebhookEvent,
                     blocked_before: set[ApprovalProduct]) -> list[Notice]:
    """The notices for the owner of ``merchant`` of the pendency ``event`` just kept, given
    the approvals blocked before it (none when it has no owner); to add in the event's
    transaction."""
    if not is_live(merchant):
        return Notice.for_owner_of(merchant, NoticeKind.PENDENCY, webhook_event_id=event.id)
    blocked_now = blocked_approvals(merchant)
    kind, changed = NoticeKind.BLOCKED, blocked_now - blocked_before
    if not changed:
        kind, changed = NoticeKind.UNBLOCKED, blocked_before - blocked_now
    if not changed:
        return Notice.for_owner_of(merchant, NoticeKind.LIVE_PENDENCY,
                                   webhook_event_id=event.id)
    return Notice.for_owner_of(merchant, kind, webhook_event_id=event.id,
                               status=" ".join(sorted(changed)))
