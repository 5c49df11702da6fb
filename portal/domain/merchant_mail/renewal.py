"""A merchant whose link expired or was withdrawn asks for a new one from its page.

The new link goes to the signatory's address on file, never to one typed on the page, and at
most RENEWALS_PER_DAY times a day, AGAIN_AFTER apart; each sent one tells the merchant's owner
by a notice, so ops know the merchant tried.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from flask_babel import gettext as _
from sqlalchemy import select

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.notice import Notice, NoticeKind
from portal.core.models.verification import MerchantLink
from portal.domain.merchant_mail.delivery import DeliveryError, email_link
from portal.domain.onboarding.merchant_links import MERCHANT

RENEWALS_PER_DAY = 3
AGAIN_AFTER = timedelta(minutes=10)
TEMPLATE = "merchant_link"


@dataclass(frozen=True)
class Renewal:
    """What asking for a new link did: sent (to ``shown``, masked), or why not, in words."""

    sent: bool
    shown: str = ""
    refusal: str = ""


def _asked_since(merchant: Merchant, since: datetime) -> list[datetime]:
    """When the merchant asked for new links since ``since``, newest first."""
    return list(db.session.scalars(
        select(MerchantLink.created_at).where(
            MerchantLink.merchant_id == merchant.id, MerchantLink.created_by == MERCHANT.label,
            MerchantLink.created_at > since).order_by(MerchantLink.created_at.desc())))


def too_soon(merchant: Merchant, now: datetime) -> str | None:
    """Why the merchant may not ask for a new link now, in their words, or None."""
    asked = _asked_since(merchant, now - timedelta(days=1))
    if asked and now - asked[0] < AGAIN_AFTER:
        return _("A new link was sent at %(sent)s UTC: please look in your inbox (and your "
                 "spam folder). You can ask again after %(again)s UTC.",
                 sent=f"{asked[0]:%H:%M}", again=f"{asked[0] + AGAIN_AFTER:%H:%M}")
    if len(asked) >= RENEWALS_PER_DAY:
        return _("%(count)s new links were sent today: please look in your inbox (and your "
                 "spam folder), or contact us directly.", count=RENEWALS_PER_DAY)
    return None


def renew(settings: Settings, merchant: Merchant) -> Renewal:
    """Email the signatory a new link as the merchant asked, unless too soon; the owner gets a
    notice of a sent one. Commits."""
    refused = too_soon(merchant, clock.utcnow())
    if refused:
        return Renewal(False, refusal=refused)
    try:
        shown = email_link(settings, merchant, TEMPLATE, MERCHANT)
    except DeliveryError:
        return Renewal(False, refusal=_("The new link could not be sent just now. Please try "
                                        "again later, or contact us directly."))
    db.session.add_all(Notice.for_owner_of(merchant, NoticeKind.LINK_RENEWED))
    db.session.commit()
    return Renewal(True, shown=shown)
