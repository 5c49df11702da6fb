""""Send to my phone": the hand-over's link by text message to the signatory's phone on file
(never a number typed on a page), a few times an hour at most, in the language of the
merchant's link; the refusals in the page's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import func, select

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.handover import PhoneHandover
from portal.core.models.merchant import Merchant
from portal.core.models.verification import MerchantLink
from portal.core.redaction import masked_phone
from portal.core.sms.message import SmsError, TextMessage
from portal.core.sms.sender import sender_for
from portal.domain.audit.service import Actor, record
from portal.domain.handover import service as handovers
from portal.domain.onboarding import merchant_language
from portal.domain.onboarding.signatory import signatory_of

#: Text messages one link may send within WINDOW.
MAX_PER_WINDOW = 3
WINDOW = timedelta(hours=1)


@dataclass(frozen=True)
class Texted:
    """What "Send to my phone" did: sent (to the number ``shown``, masked), or why not."""

    sent: bool
    shown: str = ""
    refusal: str = ""


def phone_on_file(merchant: Merchant) -> str:
    """The signatory's phone saved in step 5, or ''."""
    signatory = signatory_of(merchant)
    return signatory.phone if signatory else ""


def refusal(link: MerchantLink, phone: str) -> str:
    """Why no text may be sent for ``link`` now, in the merchant's words, or ''."""
    if not phone:
        return _("There is no phone number on file for you, so no text message can be sent. "
                 "Scan the code instead.")
    since = clock.utcnow() - WINDOW
    sent = db.session.scalar(select(func.count()).select_from(PhoneHandover).where(
        PhoneHandover.link_id == link.id, PhoneHandover.via == handovers.SMS,
        PhoneHandover.created_at > since)) or 0
    if sent >= MAX_PER_WINDOW:
        return _("%(count)s text messages were sent in the last hour, the most there can be. "
                 "Scan the code instead, or try again later.", count=MAX_PER_WINDOW)
    return ""


def text_link(settings: Settings, merchant: Merchant, link: MerchantLink, partner: str,
              url_of: handovers.UrlOf, actor: Actor) -> Texted:
    """A new hand-over of ``link``, its URL (``url_of`` its token) texted to the phone on file;
    audited with the number masked; commits."""
    phone = phone_on_file(merchant)
    reason = refusal(link, phone)
    if reason:
        return Texted(False, refusal=reason)
    handover, token = handovers.start(settings.secret_key, link, handovers.SMS,
                                      settings.handover_minutes, actor)
    with force_locale(merchant_language.of_link(link, merchant)):
        text = _("%(partner)s: continue your verification on this phone: %(url)s (opens once, "
                 "for %(minutes)s minutes).", partner=partner, url=url_of(token),
                 minutes=settings.handover_minutes)
    shown = masked_phone(phone)
    try:
        sender_for(settings).send(TextMessage(phone, text))
    except SmsError as exc:
        record("handover.sms", actor=actor, outcome="failed", merchant_id=merchant.id,
               detail={"handover": handover.id, "to": shown, "error": exc.reason})
        db.session.commit()
        return Texted(False, refusal=_("The text message could not be sent just now. Scan "
                                       "the code instead, or try again in a few minutes."))
    record("handover.sms", actor=actor, merchant_id=merchant.id,
           detail={"handover": handover.id, "to": shown})
    db.session.commit()
    return Texted(True, shown=shown)
