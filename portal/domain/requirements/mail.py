"""Email a merchant what they will need, before anything is typed: rows of the requirements
table (once the merchant is in the portal, the ones still open), in the merchant's language,
with the editable email ``merchant_needs``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import force_locale
from flask_babel import gettext as _

from portal.core.config import Settings
from portal.core.languages import DEFAULT, known
from portal.core.mail.sender import compose
from portal.core.models.merchant import Merchant
from portal.core.redaction import masked_email
from portal.domain.audit.service import Actor
from portal.domain.branding import service as branding
from portal.domain.merchant_mail import templates
from portal.domain.merchant_mail.delivery import deliver
from portal.domain.requirements.table import Requirement
from portal.domain.requirements.words import in_words

#: The email's key among the editable ones.
TEMPLATE = "merchant_needs"


@dataclass(frozen=True)
class Recipient:
    """Who the list goes to: an address ops typed (or the signatory's), and how to greet them."""

    email: str
    name: str = ""
    business: str = ""
    language: str = DEFAULT


def email_needs(settings: Settings, recipient: Recipient, rows: Sequence[Requirement],
                actor: Actor, merchant: Merchant | None = None) -> str:
    """Email ``rows`` to ``recipient`` in their language, audited with the rows' keys and the
    masked address; that address. Commits; DeliveryError when the mail server refuses."""
    brand = branding.current(settings)
    language = known(recipient.language)
    with force_locale(language):
        subject, body = templates.render(TEMPLATE, {
            "business_name": recipient.business or _("your business"),
            "signatory_name": recipient.name or _("Sir or Madam"),
            "needs": "\n".join(f"- {in_words(row)}" for row in rows),
            "partner_name": brand.display_name}, language)
    shown = masked_email(recipient.email)
    deliver(settings, lambda: compose(settings, recipient.email, subject, body,
                                      sender_name=brand.sender_name),
            "requirements.email", actor=actor,
            merchant_id=merchant.id if merchant is not None else None,
            detail={"email": shown, "language": language, "needs": [row.key for row in rows]})
    return shown
