"""An approved change request emailed to the gateway's merchant support (GATEWAY_SUPPORT_EMAIL):
a summary generated from the request, the proof attached; secrets masked in the old values."""

from __future__ import annotations

from email.message import EmailMessage

from portal.core.config import Settings
from portal.core.db import db
from portal.core.mail.sender import MailError, compose, send
from portal.core.models.change_request import ChangeRequest, ChangeState
from portal.core.models.document import StoredDocument
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import Actor
from portal.domain.branding import service as branding
from portal.domain.change_requests.sections import in_full, shown
from portal.domain.change_requests.service import mark, section_of
from portal.domain.documents import service as documents

#: Why an approved request waits, when no address is set.
NO_ADDRESS = ("GATEWAY_SUPPORT_EMAIL is not set, so the request could not be emailed; set it "
              "and press “Email the gateway's support”.")


def summary(change: ChangeRequest, merchant: Merchant, partner: str) -> tuple[str, str]:
    """The email's subject and body: who asks, which merchant, what changes from what to what,
    why, and the proof attached. The old values' secrets are masked; the new ones are whole,
    for the support to enter."""
    section = section_of(change)
    lines = [f"- {field.label}: {shown(field, change.old_values.get(field.path, ''))} -> "
             f"{in_full(field, change.new_values.get(field.path, '')) or '—'}"
             for field in section.fields]
    proof = (f"\nProof attached: {section.proof_words.lower()}.\n"
             if change.proof_document_id else "\n")
    subject = (f"Change of {section.title.lower()}: {merchant.public_name} "
               f"({merchant.onboarding_id})")
    body = (f"Hello,\n\n{partner} asks you to reset the onboarding record of "
            f"{merchant.public_name} (onboarding id {merchant.onboarding_id}, our reference "
            f"{merchant.external_onboarding_id}) for a change of its "
            f"{section.title.lower()}:\n\n" + "\n".join(lines) + "\n\nWhy: "
            + change.reason + "\n" + proof + f"\nOur reference for this request: change "
            f"{change.id}. Please reply to this email once the record is reset, or say why "
            f"not.\n\n{partner}\n")
    return subject, body


def email_support(settings: Settings, change: ChangeRequest, actor: Actor) -> str:
    """Email ``change`` to the gateway's support; the message for the page. The request moves
    to sent, or stays approved with why the email could not go (to be sent again)."""
    merchant = db.session.get(Merchant, change.merchant_id)
    if merchant is None:
        return "The merchant is gone; nothing was sent."
    if not settings.gateway_support_email:
        mark(change, ChangeState.APPROVED, actor, "change_request.approved", NO_ADDRESS)
        return NO_ADDRESS
    brand = branding.current(settings)
    subject, body = summary(change, merchant, brand.display_name)
    try:
        message = compose(settings, settings.gateway_support_email, subject, body,
                          sender_name=brand.sender_name)
        _attach_proof(settings, change, message)
        send(settings, message)
    except MailError as exc:
        mark(change, ChangeState.APPROVED, actor, "change_request.approved", str(exc))
        return f"Approved, but not emailed: {exc}"
    mark(change, ChangeState.SENT, actor, "change_request.sent")
    return f"The change was emailed to the gateway's support ({settings.gateway_support_email})."


def _attach_proof(settings: Settings, change: ChangeRequest, message: EmailMessage) -> None:
    document = (db.session.get(StoredDocument, change.proof_document_id)
                if change.proof_document_id else None)
    if document is None:
        return
    with documents.stored_file(settings, document).open() as stored:
        content = stored.read()
    kind, _, sub = document.content_type.partition("/")
    message.add_attachment(content, maintype=kind, subtype=sub,
                           filename=documents.download_name(document))
