"""Telling a rejected merchant by email: the editable rejection template, in the merchant's
language, to its signatory, with the gateway's reason when it gave one; audited, and the
merchant noted as told (its worklist item goes)."""

from __future__ import annotations

from flask_babel import force_locale
from flask_babel import gettext as _

from portal.core.config import Settings
from portal.core.db import db
from portal.core.mail.sender import MailError, compose, send
from portal.core.models.merchant import Merchant
from portal.core.models.user import User
from portal.core.redaction import masked_email
from portal.domain.audit.service import Actor, record
from portal.domain.branding import service as branding
from portal.domain.merchant_mail import templates
from portal.domain.merchant_mail.delivery import DeliveryError
from portal.domain.onboarding import merchant_language
from portal.domain.onboarding.pendencies import latest, pendencies
from portal.domain.onboarding.signatory import signatory_of
from portal.domain.worklist.service import mark_told
from portal.gateway.onboarding.vocabulary import OnboardingStatus

KEY = "merchant_rejected"


def reason_words(merchant: Merchant) -> str:
    """The gateway's reason as the email's sentence, in the current language."""
    said = latest(pendencies(merchant))
    if said is not None and said.reason:
        return _("The gateway's reason: \u201c%(reason)s\u201d", reason=said.reason)
    return _("The gateway gave no reason with its decision.")


def email_rejection(settings: Settings, merchant: Merchant, by: User) -> str:
    """Email the signatory that the gateway rejected ``merchant`` and note it told; the masked
    address. Commits; DeliveryError says in words why nothing went."""
    if merchant.status != OnboardingStatus.REJECTED:
        raise DeliveryError("Only a merchant the gateway rejected is told so.")
    signatory = signatory_of(merchant)
    if signatory is None:
        raise DeliveryError("This merchant has no signatory email: tell them another way, "
                            "then mark them told.")
    brand = branding.current(settings)
    language = merchant_language.language_of(merchant)
    with force_locale(language):
        subject, body = templates.render(KEY, {
            "business_name": merchant.public_name,
            "signatory_name": signatory.name or _("Sir or Madam"),
            "reason": reason_words(merchant), "partner_name": brand.display_name}, language)
    actor, shown = Actor.of(by), masked_email(signatory.email)
    try:
        send(settings, compose(settings, signatory.email, subject, body,
                             sender_name=brand.sender_name))
    except MailError as exc:
        record("merchant.rejection_email", actor=actor, outcome="failed",
               merchant_id=merchant.id, detail={"to": shown, "language": language})
        db.session.commit()
        raise DeliveryError(str(exc)) from exc
    record("merchant.rejection_email", actor=actor, merchant_id=merchant.id,
           detail={"to": shown, "language": language})
    mark_told(merchant, by)
    db.session.commit()
    return shown
