"""Asking for a second admin: which changes need one, and storing the request, checked now so
the asker hears of a problem at once (the action checks again when it runs).

A refund that would take a payment's refunds sent without approval past FOUR_EYES_REFUND_ABOVE
(``refund_allowance``), importing a key, replacing a merchant's credentials or the portfolio
key, an API key with the payments scope, a change of a merchant's locked details, and giving
someone the admin role wait for another admin (or, for the admin role, the asker being the
only one, for the confirmation emailed to ADMIN_CONFIRMATION_EMAIL).
Functions take plain arguments and commit.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from cryptography.hazmat.primitives import serialization
from sqlalchemy import select, update

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.approval import ApprovalKind, ApprovalRequest, ApprovalState
from portal.core.models.change_request import ChangeRequest
from portal.core.models.merchant import Merchant
from portal.core.models.payment import ActionState, Payment
from portal.core.refusals import FieldRefused
from portal.domain.api import keys
from portal.domain.audit.service import Actor, actor_of, record
from portal.domain.change_requests import service as change_requests
from portal.domain.change_requests.service import Proof
from portal.domain.payments import actions
from portal.domain.payments import credentials as creds
from portal.domain.payments.service import new_nonce, not_approved_reason, refundable, refunds_of

#: How long a request waits for a second admin before it lapses.
LIFETIME = timedelta(hours=24)
REASON_MAX = 1000
REASON_MISSING = ("Say why, in a sentence: another admin reads it before approving "
                  "(for example the support ticket and what the customer was promised).")


class RequestRefused(FieldRefused):
    """The request cannot be stored; ``field`` names the form field the message belongs to."""


def merchant_key_needs_approval(merchant: Merchant, imported_pem: str | None,
                                replace: bool) -> bool:
    """Importing a key, or replacing the merchant's current credentials, needs a second admin."""
    return imported_pem is not None or (replace and creds.credentials_of(merchant) is not None)


def portfolio_key_needs_approval(imported_pem: str | None, replace: bool) -> bool:
    """Importing a portfolio key, or replacing the current one, needs a second admin."""
    return imported_pem is not None or (replace and creds.portfolio_key() is not None)


def _checked_reason(reason: str | None) -> str:
    text = (reason or "").strip()
    if not text:
        raise RequestRefused(REASON_MISSING, "reason")
    if len(text) > REASON_MAX:
        raise RequestRefused(f"Keep the reason under {REASON_MAX} characters.", "reason")
    return text


def _store(kind: ApprovalKind, summary: str, payload: dict[str, Any], reason: str,
           user_id: int | None, merchant_id: int | None = None,
           payment: Payment | None = None) -> ApprovalRequest:
    """Store the pending request and audit it as ``user_id``'s, in one commit."""
    now = clock.utcnow()
    request = ApprovalRequest(kind=kind, state=ApprovalState.PENDING, summary=summary[:300],
                              merchant_id=merchant_id, payment_id=payment.id if payment else None,
                              payload=payload, reason=reason, requested_by_id=user_id,
                              requested_at=now, expires_at=now + LIFETIME)
    db.session.add(request)
    db.session.flush()
    record("approval.requested", actor=actor_of(user_id), merchant_id=merchant_id,
           gid=(payment.gid or "") if payment else "",
           detail={"request": request.id, "kind": kind.value, "summary": request.summary,
                   "reason": reason})
    db.session.commit()
    return request


def _use_form(payment: Payment, nonce: str) -> bool:
    """Spend the payment's action form (its one-time nonce) without sending anything, so the
    same form posted twice stores one request; False when it was used already."""
    db.session.commit()
    used = db.session.execute(
        update(Payment)
        .where(Payment.id == payment.id, Payment.action_nonce == nonce,
               Payment.action_state == ActionState.IDLE)
        .values(action_nonce=new_nonce())
        .execution_options(synchronize_session=False))
    db.session.commit()
    db.session.refresh(payment)
    return used.rowcount == 1


def _awaiting_refusal(payment: Payment, amount: str, left: Decimal) -> str | None:
    """Why ``amount`` cannot also be asked for while other refunds of the payment await a
    second admin (together they would exceed what is left), or None."""
    awaiting = sum((Decimal(r.payload["amount"]) for r in db.session.scalars(
        select(ApprovalRequest).where(ApprovalRequest.payment_id == payment.id,
                                      ApprovalRequest.state == ApprovalState.PENDING,
                                      ApprovalRequest.expires_at > clock.utcnow()))),
                   Decimal(0))
    if awaiting and awaiting + Decimal(amount) > left:
        return (f"Refunds of {awaiting} {payment.currency} already await a second admin; at "
                f"most {left - awaiting} {payment.currency} more can be asked for now.")
    return None


def request_refund(payment: Payment, amount: str | None, again: bool, reason: str | None,
                   nonce: str, user_id: int | None) -> ApprovalRequest:
    """Store a large refund for a second admin, once the refund would be accepted as it stands."""
    refunds = refunds_of(payment)
    problem = actions.state_refusal(payment, actions.REFUND, refunds)
    if problem:
        raise RequestRefused(problem)
    problem = (actions.amount_refusal(payment, actions.REFUND, amount, refunds)
               or _awaiting_refusal(payment, amount or "0", refundable(payment, refunds)))
    if problem:
        raise RequestRefused(problem, "amount")
    text = _checked_reason(reason)
    if not _use_form(payment, nonce):
        raise RequestRefused("This form was already used, so no second request was stored. "
                             "The page now shows the payment as it stands.")
    summary = (f"Refund {amount} {payment.currency} of payment {payment.merchant_txn_id}")
    return _store(ApprovalKind.REFUND, summary, {"amount": amount, "again": again}, text,
                  user_id, payment.merchant_id, payment)


def request_merchant_key(merchant: Merchant, mid: str, kid: str | None, imported_pem: str | None,
                         replace: bool, use_portfolio: bool, reason: str | None,
                         user_id: int | None) -> ApprovalRequest:
    """Store a key import or a credentials replacement for a second admin; the key being
    imported is checked now (``creds.CredentialsError``) and kept encrypted until it runs."""
    refusal = not_approved_reason(merchant)
    if refusal:
        raise creds.CredentialsError(refusal)
    if creds.credentials_of(merchant) is not None and not replace:
        raise creds.CredentialsError("Tick the box to replace the current credentials.")
    if use_portfolio and creds.portfolio_key() is None:
        raise creds.CredentialsError("No portfolio key is set up yet: an admin sets it up on "
                                     "the portfolio key page first.")
    fingerprint = key_fingerprint(imported_pem) if imported_pem and not use_portfolio else None
    text = _checked_reason(reason)
    what = ("sign with the portfolio key" if use_portfolio
            else f"import key {kid}" if imported_pem else f"generate a new key {kid}")
    summary = f"Replace the payment credentials of {merchant.name} (MID {mid}): {what}" \
        if replace else f"Set up the payment credentials of {merchant.name} (MID {mid}): {what}"
    payload = {"mid": mid, "kid": kid, "private_key_pem": None if use_portfolio else imported_pem,
               "replace": replace, "use_portfolio": use_portfolio, "fingerprint": fingerprint}
    return _store(ApprovalKind.MERCHANT_KEY, summary, payload, text, user_id, merchant.id)


def request_portfolio_key(parent_mid: str, kid: str, imported_pem: str | None, replace: bool,
                          reason: str | None, user_id: int | None) -> ApprovalRequest:
    """Store a portfolio key import or replacement for a second admin."""
    if creds.portfolio_key() is not None and not replace:
        raise creds.CredentialsError("Tick the box to replace the portfolio key.")
    fingerprint = key_fingerprint(imported_pem) if imported_pem else None
    text = _checked_reason(reason)
    how = f"import key {kid}" if imported_pem else f"generate a new key {kid}"
    verb = "Replace" if replace else "Set up"
    summary = f"{verb} the portfolio key (parent MID {parent_mid}): {how}"
    payload = {"parent_mid": parent_mid, "kid": kid, "private_key_pem": imported_pem,
               "replace": replace, "fingerprint": fingerprint}
    return _store(ApprovalKind.PORTFOLIO_KEY, summary, payload, text, user_id)


def key_fingerprint(pem: str) -> str:
    """The SHA-256 of the imported key's public half (its DER SubjectPublicKeyInfo), in hex:
    what ``openssl pkey -in key.pem -pubout -outform DER | sha256sum`` prints, so the approving
    admin can check it is the key the partner sent. Refuses a key that cannot be imported
    (``creds.CredentialsError``)."""
    public = creds.read_private_key(pem).public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return hashlib.sha256(public).hexdigest()


def _already_asked(summary: str) -> bool:
    return db.session.scalar(select(ApprovalRequest.id).where(
        ApprovalRequest.kind == ApprovalKind.ADMIN_ROLE, ApprovalRequest.summary == summary,
        ApprovalRequest.state == ApprovalState.PENDING,
        ApprovalRequest.expires_at > clock.utcnow()).limit(1)) is not None


ADMIN_REASON_MISSING = ("Say why they need to be an administrator, in a sentence: another "
                        "administrator reads it before approving.")


def request_admin_role(email: str, user_id: int | None, invite: bool, reason: str | None,
                       asker_id: int, confirm_to: str = "") -> ApprovalRequest:
    """Store adding ``email`` as an administrator (``user_id`` None; ``invite``: email them a
    link to choose a password once approved) or making the operations user ``user_id`` one;
    ``confirm_to``: the address whose emailed link may confirm it (the asker is the only
    admin), else another admin approves it."""
    summary = (f"Make {email} an administrator" if user_id is not None
               else f"Add {email} as an administrator")
    if _already_asked(summary):
        raise RequestRefused(f"{summary}: this is already waiting for another admin on the "
                             "Approvals page.")
    if not (reason or "").strip():
        raise RequestRefused(ADMIN_REASON_MISSING, "reason")
    text = _checked_reason(reason)
    payload = {"email": email, "user_id": user_id, "invite": invite, "confirm_to": confirm_to}
    return _store(ApprovalKind.ADMIN_ROLE, summary, payload, text, asker_id)


def request_api_key(key_name: str, scopes: list[str], expires_at: datetime | None,
                    reason: str | None, user_id: int) -> tuple[keys.IssuedKey, ApprovalRequest]:
    """Create an API key that opens only once a second admin approves it, and store that
    request; the token is shown once now (the approval never sees it). ``keys.KeyRefused`` or
    ``RequestRefused`` for what cannot be stored."""
    text = _checked_reason(reason)
    issued = keys.stage_key(key_name, scopes, expires_at, user_id, actor_of(user_id))
    summary = f"Let the API key {issued.key.name} take and act on payments"
    request = _store(ApprovalKind.API_KEY, summary,
                     {"api_key_id": issued.key.id, "scopes": issued.key.scopes}, text, user_id)
    return issued, request


def request_change(settings: Settings, merchant: Merchant, section: str,
                   new_values: Mapping[str, str], reason: str, proof: Proof | None,
                   user_id: int | None, actor: Actor) -> ChangeRequest:
    """Record a change of the merchant's locked ``section`` (checked by its own service) and
    ask a second person to approve emailing it to the gateway's support, in one commit."""
    change = change_requests.draft(settings, merchant, section, new_values, reason, proof,
                                   user_id, actor)
    title = change_requests.section_of(change).title
    change.approval_request_id = _store(
        ApprovalKind.CHANGE_REQUEST, f"{title} of {merchant.public_name}",
        {"change_request_id": change.id}, change.reason, user_id, merchant_id=merchant.id).id
    db.session.commit()
    return change
