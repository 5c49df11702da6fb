"""What an approved request does: the refund, key change, new administrator, API key or change
request email it was asked for, through the same functions the pages call, so every check they
make is made again now."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.approval import ApprovalKind, ApprovalRequest, ApprovalState
from portal.core.models.change_request import ChangeRequest, ChangeState
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.core.models.user import Role
from portal.domain.api import keys
from portal.domain.audit.service import Actor, record
from portal.domain.change_requests.mail import email_support
from portal.domain.four_eyes import refund_allowance
from portal.domain.jobs.account_mail import queue_invitation
from portal.domain.payments import actions, portfolio
from portal.domain.payments import credentials as creds
from portal.domain.payments.service import refunds_of
from portal.domain.users import accounts, admins, passwords


@dataclass(frozen=True)
class Outcome:
    """How carrying a request out went: its final state and what to tell the admins."""

    state: ApprovalState
    message: str


def run(settings: Settings, request: ApprovalRequest, actor: Actor) -> Outcome:
    """Carry out the approved ``request`` (claimed already, so this runs once), as ``actor``'s
    (the approving admin)."""
    try:
        if request.kind == ApprovalKind.REFUND:
            return _refund(settings, request, actor)
        if request.kind == ApprovalKind.MERCHANT_KEY:
            return _merchant_key(settings, request, actor)
        if request.kind == ApprovalKind.ADMIN_ROLE:
            return _admin_role(settings, request, actor)
        if request.kind == ApprovalKind.API_KEY:
            return _api_key(request, actor)
        if request.kind == ApprovalKind.CHANGE_REQUEST:
            return _change_request(settings, request, actor)
        return _portfolio_key(settings, request, actor)
    except creds.CredentialsError as exc:
        db.session.rollback()
        return Outcome(ApprovalState.FAILED, str(exc))


def _refund(settings: Settings, request: ApprovalRequest, actor: Actor) -> Outcome:
    payment = db.session.get(Payment, request.payment_id)
    merchant = db.session.get(Merchant, request.merchant_id)
    current = creds.credentials_of(merchant) if merchant else None
    if payment is None or current is None:
        return Outcome(ApprovalState.FAILED, "The payment or its merchant's credentials are gone; "
                                             "nothing was sent.")
    db.session.refresh(payment)
    earlier = {refund.id for refund in refunds_of(payment)}
    result = actions.perform(creds.client_for(settings, current), payment, actions.REFUND,
                             payment.action_nonce, request.payload["amount"],
                             bool(request.payload.get("again")), actor=actor)
    refund_allowance.mark_approved(payment, earlier, request.id)
    if result.ok:
        return Outcome(ApprovalState.DONE, result.message)
    return Outcome(ApprovalState.UNKNOWN if result.outcome_unknown else ApprovalState.FAILED,
                   result.message)


def _merchant_key(settings: Settings, request: ApprovalRequest, actor: Actor) -> Outcome:
    merchant = db.session.get(Merchant, request.merchant_id)
    if merchant is None:
        return Outcome(ApprovalState.FAILED, "The merchant is gone; nothing was changed.")
    data = request.payload
    saved = creds.save_credentials(settings, merchant, data["mid"], data["kid"],
                                   data["private_key_pem"], request.requested_by_id,
                                   replace=data["replace"], use_portfolio=data["use_portfolio"],
                                   actor=actor)
    return Outcome(ApprovalState.DONE, saved.message)


def _portfolio_key(settings: Settings, request: ApprovalRequest, actor: Actor) -> Outcome:
    data = request.payload
    saved = portfolio.save_portfolio_key(settings, data["parent_mid"], data["kid"],
                                         data["private_key_pem"], request.requested_by_id,
                                         replace=data["replace"], actor=actor)
    return Outcome(ApprovalState.DONE, saved.message)


def _admin_role(settings: Settings, request: ApprovalRequest, actor: Actor) -> Outcome:
    """Make the operations user an admin, or add the new admin (the asker recorded as who did:
    neither may approve the other's requests with that account)."""
    data = request.payload
    if data["user_id"] is not None:
        if not admins.promote(data["user_id"], request.requested_by_id):
            return Outcome(ApprovalState.FAILED, f"{data['email']} is no longer an operations "
                                                 "user; nothing was changed.")
        record("user.role_change", actor=actor, detail={
            "email": data["email"], "from": Role.OPS.value, "to": Role.ADMIN.value,
            "request": request.id})
        return Outcome(ApprovalState.DONE, f"{data['email']} is now an administrator.")
    try:
        user = accounts.create_user(
            data["email"], passwords.generate_password(), Role.ADMIN,
            one_time_for=timedelta(hours=settings.one_time_password_hours),
            created_by_id=request.requested_by_id)
    except accounts.AccountError:
        return Outcome(ApprovalState.FAILED, f"There is already a user {data['email']}; nothing "
                                             "was changed.")
    record("user.create", actor=actor, detail={"email": user.email, "role": user.role,
                                               "request": request.id})
    if data["invite"]:
        queue_invitation(user.id, request.requested_by_id)
        return Outcome(ApprovalState.DONE, f"{user.email} was added as an administrator and is "
                                           "being emailed a link to choose a password.")
    return Outcome(ApprovalState.DONE, f"{user.email} was added as an administrator. Give them "
                                       "a one-time password on the Team page.")


def _api_key(request: ApprovalRequest, actor: Actor) -> Outcome:
    if not keys.activate(request.payload["api_key_id"], actor):
        return Outcome(ApprovalState.FAILED, "The API key was revoked meanwhile; it stays closed.")
    return Outcome(ApprovalState.DONE, "The API key may now take and act on payments.")


def _change_request(settings: Settings, request: ApprovalRequest, actor: Actor) -> Outcome:
    """Email the approved change to the gateway's support (it stays approved, to be emailed
    again, when the mail cannot go: the approval itself is done)."""
    change = db.session.get(ChangeRequest, request.payload["change_request_id"])
    if change is None or change.state != ChangeState.DRAFTED:
        return Outcome(ApprovalState.FAILED, "The change request was closed meanwhile; nothing "
                                             "was sent.")
    return Outcome(ApprovalState.DONE, email_support(settings, change, actor))
