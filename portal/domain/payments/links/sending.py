"""Sending a payment link: a new hold stored (not sent to the gateway) with its link, emailed to
the customer; resending it (a new token, a new lifetime) and cancelling it.

The hold and its link are committed before the email goes, and the email is recorded as sent
only once the mail server accepted it: a process killed in between leaves a link "not emailed",
which the hold's page offers to resend, and never one said to be emailed that was not. Resend
and cancel are conditional UPDATEs on a link nobody opened, so neither can race an open.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.mail.sender import MailError, send
from portal.core.mail.urls import absolute_url
from portal.core.models.merchant import Merchant
from portal.core.models.payment import ActionState, Payment, email_in
from portal.core.models.payment_link import LinkState, PaymentLink
from portal.core.redaction import masked_email
from portal.domain.audit.service import Actor, record
from portal.domain.payments import credentials as creds
from portal.domain.payments.holds import stored_hold
from portal.domain.payments.links.letter import letter
from portal.domain.payments.links.tokens import new_nonce, token_for
from portal.domain.payments.service import unavailable_reason
from portal.gateway.payments.requests import InitiateRequest
from portal.gateway.shapes import FieldError, dump, validate_payload

#: The hold form's field the link is emailed to.
EMAIL_FIELD = "paymentData.billingData.emailId"
#: The public page a link opens.
PAGE_ENDPOINT = "payment_links.page"


@dataclass(frozen=True)
class Sent:
    """How sending (or resending) a link went: ``payment_id`` names the stored hold (None when
    nothing was stored: the form's ``errors`` say why)."""

    ok: bool
    message: str
    payment_id: int | None = None
    errors: list[FieldError] = field(default_factory=list)


def link_of(payment: Payment) -> PaymentLink | None:
    """The hold's payment link, if the customer was sent one."""
    return db.session.scalar(select(PaymentLink).where(PaymentLink.payment_id == payment.id))


def lifetime(settings: Settings) -> timedelta:
    """How long a link (re)sent now can be opened."""
    return timedelta(hours=settings.payment_link_hours)


def hold_by_link(settings: Settings, merchant: Merchant, body: dict, actor: Actor,
                 language: str | None = None) -> Sent:
    """Validate and store the hold ``body`` without sending it, make its link and email it to
    the customer's address in the billing details; commits. Sending the same form twice makes
    one hold and one link (the second says it was emailed already). ``language``: the one the
    customer picked on an earlier link for this payment, which the new link starts with."""
    refused = unavailable_reason(merchant) or _no_credentials(merchant)
    if refused:
        return Sent(False, refused)
    value, errors = validate_payload(InitiateRequest, body)
    if not errors and email_in(body) is None:
        errors = [FieldError(EMAIL_FIELD, "Enter the customer's email: the payment link is "
                                          "sent to it.")]
    if errors:
        return Sent(False, "Please correct the fields marked below.", errors=errors)
    payment, problem = stored_hold(merchant, dump(value), actor.id, by_link=True)
    if payment is None or problem:
        return Sent(False, problem)
    if payment.gid is not None or payment.action_state != ActionState.IDLE:
        return Sent(False, "This hold was already sent to the gateway from this form, so it "
                           "cannot be sent as a link; start a new hold.", payment.id)
    link = link_of(payment) or _new_link(settings, payment, actor, language)
    if link.state == LinkState.CANCELLED:
        return Sent(False, "This hold's payment link was cancelled; start a new hold to send "
                           "the customer another.", payment.id)
    if link.emails_sent:
        return Sent(True, f"This payment link was already emailed to "
                          f"{masked_email(payment.customer_email or '')}.", payment.id)
    return _email(settings, link, payment, merchant, actor, "payment_link.send")


def _no_credentials(merchant: Merchant) -> str | None:
    if creds.credentials_of(merchant) is None:
        return ("This merchant has no payment credentials yet, so a link could not open a "
                "checkout: an admin sets them up first.")
    return None


def _new_link(settings: Settings, payment: Payment, actor: Actor,
              language: str | None) -> PaymentLink:
    """Store the hold's link (in ``language``, None: the merchant's); the one stored meanwhile
    by the same form sent twice at once wins."""
    now = clock.utcnow()
    link = PaymentLink(payment_id=payment.id, nonce=new_nonce(), state=LinkState.WAITING,
                       expires_at=now + lifetime(settings), created_at=now,
                       created_by_id=actor.id, emails_sent=0, failure="", language=language)
    db.session.add(link)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        existing = link_of(payment)
        assert existing is not None
        return existing
    return link


def _email(settings: Settings, link: PaymentLink, payment: Payment, merchant: Merchant,
           actor: Actor, action: str) -> Sent:
    """Email the link as it stands; record whether the mail server took it; commits."""
    url = absolute_url(PAGE_ENDPOINT, payment_link_id=link.id,
                       token=token_for(settings.secret_key, link))
    shown = masked_email(payment.customer_email or "")
    detail = {"link": link.id, "merchantTxnId": payment.merchant_txn_id, "to": shown,
              "expiresAt": link.expires_at.isoformat()}
    try:
        send(settings, letter(settings, link, payment, merchant, url))
    except MailError as exc:
        link.email_failed_at = clock.utcnow()
        record(action, outcome="failed", merchant_id=merchant.id, actor=actor, detail=detail)
        db.session.commit()
        return Sent(False, f"The hold is stored with its payment link, but the email to {shown} "
                           f"could not be sent: {exc.reason}. Resend the link once that is "
                           "put right.", payment.id)
    db.session.execute(
        update(PaymentLink).where(PaymentLink.id == link.id)
        .values(emailed_at=clock.utcnow(), email_failed_at=None,
                emails_sent=PaymentLink.emails_sent + 1)
        .execution_options(synchronize_session=False))
    record(action, merchant_id=merchant.id, actor=actor, detail=detail)
    db.session.commit()
    db.session.refresh(link)
    return Sent(True, f"A payment link was emailed to {shown}. It can be opened once, until "
                      f"{link.expires_at:%Y-%m-%d %H:%M} UTC.", payment.id)


def _unopened(link: PaymentLink) -> list:
    return [PaymentLink.id == link.id, PaymentLink.state == LinkState.WAITING]


def resend(settings: Settings, payment: Payment, merchant: Merchant, actor: Actor) -> Sent:
    """Email the customer a new link for the hold (the older email's link stops working) with a
    new lifetime; only while nobody opened it. Commits."""
    link = link_of(payment)
    if link is None:
        return Sent(False, "This hold has no payment link to resend.", payment.id)
    now = clock.utcnow()
    db.session.commit()  # the UPDATE starts its own transaction: no stale read to upgrade
    moved = db.session.execute(
        update(PaymentLink).where(*_unopened(link))
        .values(nonce=new_nonce(), expires_at=now + lifetime(settings), failure="")
        .execution_options(synchronize_session=False))
    db.session.commit()
    if moved.rowcount != 1:
        return Sent(False, _not_unopened(link), payment.id)
    db.session.refresh(link)
    return _email(settings, link, payment, merchant, actor, "payment_link.resend")


def cancel(payment: Payment, actor: Actor) -> Sent:
    """Withdraw the hold's link so the customer can no longer open it; only while nobody opened
    it. Commits."""
    link = link_of(payment)
    if link is None:
        return Sent(False, "This hold has no payment link to cancel.", payment.id)
    db.session.commit()
    moved = db.session.execute(
        update(PaymentLink).where(*_unopened(link))
        .values(state=LinkState.CANCELLED, cancelled_at=clock.utcnow(),
                cancelled_by_id=actor.id)
        .execution_options(synchronize_session=False))
    if moved.rowcount != 1:
        db.session.rollback()
        return Sent(False, _not_unopened(link), payment.id)
    record("payment_link.cancel", merchant_id=payment.merchant_id, actor=actor,
           detail={"link": link.id, "merchantTxnId": payment.merchant_txn_id})
    db.session.commit()
    return Sent(True, "The payment link was cancelled: the customer can no longer open it. "
                      "The hold never reached the gateway; discard it below if it is not "
                      "needed.", payment.id)


def _not_unopened(link: PaymentLink) -> str:
    db.session.refresh(link)
    if link.state == LinkState.CANCELLED:
        return "This payment link was cancelled already."
    return ("The customer has opened this payment link, so it can no longer be resent or "
            "cancelled.")

