"""Email a merchant's signatory a fresh verification link, with one of the editable templates."""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage

from flask_babel import force_locale
from flask_babel import gettext as _

from portal.core.config import Settings
from portal.core.db import db
from portal.core.mail.sender import MailError, compose, send
from portal.core.mail.urls import absolute_url
from portal.core.models.merchant import Merchant
from portal.core.redaction import masked_email
from portal.domain.audit.service import Actor, record
from portal.domain.branding import service as branding
from portal.domain.merchant_mail import templates
from portal.domain.onboarding import merchant_language
from portal.domain.onboarding import merchant_links as links
from portal.domain.onboarding.signatory import signatory_of


class DeliveryError(RuntimeError):
    """The email could not be sent; the message says why in words for ops."""


def email_link(settings: Settings, merchant: Merchant, template_key: str, actor: Actor) -> str:
    """Issue a 24-hour link, email it to the signatory in the merchant's language and audit it;
    the masked address.

    Commits. When the mail server refuses, the undelivered link is withdrawn and DeliveryError
    says so.
    """
    refused = links.refusal(merchant)
    if refused:
        raise DeliveryError(refused)
    signatory = signatory_of(merchant)
    if signatory is None:
        raise DeliveryError("This merchant has no signatory email yet: fill in step 5 first.")
    link, token = links.issue(settings.secret_key, merchant, actor)
    url = absolute_url("verification.merchant_page", merchant_id=merchant.id, token=token)
    brand = branding.current(settings)
    language = merchant_language.language_of(merchant)
    with force_locale(language):
        subject, body = templates.render(template_key, {
            "business_name": merchant.public_name,
            "signatory_name": signatory.name or _("Sir or Madam"), "link": url,
            "expires_at": f"{link.expires_at:%Y-%m-%d %H:%M} UTC",
            "partner_name": brand.display_name}, language)
    shown = masked_email(signatory.email)
    deliver(settings, lambda: compose(settings, signatory.email, subject, body,
                                      sender_name=brand.sender_name),
            "merchant_link.email", actor=actor, merchant_id=merchant.id,
            detail={"link": link.id, "template": template_key, "language": language,
                    "to": shown},
            undo=lambda: links.revoke(merchant, link.id, actor))
    return shown


def deliver(settings: Settings, message: Callable[[], EmailMessage], action: str, *, actor: Actor,
            merchant_id: int | None, detail: dict[str, object],
            undo: Callable[[], None] | None = None) -> None:
    """Write the email ``message`` composes, send it to a merchant and audit ``action`` with
    ``detail`` (no address in it unmasked); commits. When it cannot be written or the mail
    server refuses it, ``undo`` withdraws what the email carried, the failure is audited and
    DeliveryError says why."""
    try:
        send(settings, message())
    except MailError as exc:
        if undo is not None:
            undo()
        record(action, actor=actor, outcome="failed", merchant_id=merchant_id, detail=detail)
        db.session.commit()
        raise DeliveryError(str(exc)) from exc
    record(action, actor=actor, merchant_id=merchant_id, detail=detail)
    db.session.commit()
