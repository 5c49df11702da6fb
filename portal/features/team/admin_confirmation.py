"""A second administrator while only one exists: confirmed from outside the portal, or refused.

Four eyes need two people, and an admin alone could add a second account of their own and
approve their own requests with it. So while the asker is the only active admin, adding an
administrator or making someone one is stored as a request (with its reason) that only the
link emailed to ADMIN_CONFIRMATION_EMAIL confirms: its page needs no sign-in, shows who asks
for whom and why, and confirming is a POST. With no address set the request is refused with
the command to run on the server instead (``flask users create EMAIL --role admin``, or
``flask users make-admin EMAIL`` for a member).

The link is signed with SECRET_KEY over the request's id and works once (confirming claims the
request, ``decisions.confirm_by_email``), while the request waits (24 hours), and only while
ADMIN_CONFIRMATION_EMAIL still names the address it was sent to. The asker stays recorded as who
added or promoted the new admin (``portal.domain.users.vouching``): that account never approves
their requests. Every step is audited; functions take plain arguments and commit.
"""

from __future__ import annotations

from dataclasses import dataclass

from itsdangerous import BadSignature, SignatureExpired

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.mail.sender import MailError, compose, send
from portal.core.mail.urls import absolute_url
from portal.core.models.approval import ApprovalKind, ApprovalRequest, ApprovalState
from portal.core.models.user import User
from portal.core.timed_tokens import timed_serializer
from portal.domain.audit.service import ANONYMOUS, Actor, record
from portal.domain.four_eyes import decisions, queries, requests
from portal.domain.users import admins

SALT = "portal.admin-confirmation"
#: The public page the emailed link opens.
ENDPOINT = "team.confirm_admin"
SUBJECT = "Confirm a new administrator of the Partner Onboarding Portal"
BODY = """Hello,

{asker} is the only administrator of the Partner Onboarding Portal, and asks:
{summary}.
Their reason: {reason}

Administrators approve each other's key imports, large refunds and new administrators, so a
second one needs a second person's trust: yours. If you know this is right, open the link,
check what it shows and press Confirm. It works once, until {until} UTC:

{link}

If it is not right, do nothing: nothing changes, and the request lapses. This address receives
it because the portal's ADMIN_CONFIRMATION_EMAIL setting names it.
"""
NOT_VALID = ("This confirmation link does not work: it was not copied whole, or the portal "
             "now sends confirmations to another address.")
EXPIRED = ("This confirmation link has expired: a request waits 24 hours. Nothing was changed; "
           "the administrator can ask again.")
USED = "This request was already decided, so the link no longer works; nothing was run again."


def alone(actor_id: int) -> bool:
    """True when ``actor_id`` is the only active admin: a new administrator they ask for is
    confirmed by the emailed link (or refused), never approved by themselves."""
    return not admins.another_active_admin(actor_id)


def server_command(email: str, member: bool) -> str:
    """The command that makes ``email`` an administrator on the server (``member``: the
    account exists already)."""
    return (f"flask --app app users make-admin {email}" if member
            else f"flask --app app users create {email} --role admin")


def no_address_refusal(email: str, member: bool) -> str:
    """Why the only admin cannot make ``email`` an administrator here, and what does."""
    return ("Nothing was changed: you are the only administrator, and a second one needs a "
            f"second person's trust. Run {server_command(email, member)} on the server, or set "
            "ADMIN_CONFIRMATION_EMAIL so that a confirmation link can be emailed.")


def hold(settings: Settings, email: str, user_id: int | None, invite: bool,
         reason: str | None, asker: User) -> ApprovalRequest:
    """Store the new administrator (``user_id`` None) or the promotion of member ``user_id``
    as a request, and email its confirmation link; ``requests.RequestRefused`` when no address
    is set, the request is refused, or the email cannot be sent (the request is then
    withdrawn)."""
    address = settings.admin_confirmation_email
    if not address:
        raise requests.RequestRefused(no_address_refusal(email, user_id is not None))
    held = requests.request_admin_role(email, user_id, invite, reason, asker.id,
                                       confirm_to=address)
    token = token_for(settings.secret_key, held.id)
    body = BODY.format(asker=asker.email, summary=held.summary,
                       reason=held.reason, until=f"{held.expires_at:%Y-%m-%d %H:%M}",
                       link=absolute_url(ENDPOINT, request_id=held.id, token=token))
    try:
        send(settings, compose(settings, address, SUBJECT, body))
    except MailError as exc:
        _audit_email(held, asker, address, "failed")
        decisions.reject(held.id, asker.id, "The confirmation could not be emailed.")
        raise requests.RequestRefused(f"Nothing was changed: the confirmation could not be "
                                      f"emailed to {address}. Try again when the mail server "
                                      "answers.") from exc
    _audit_email(held, asker, address, "ok")
    return held


def token_for(secret_key: str, request_id: int) -> str:
    """The emailed link's token: request ``request_id``, signed and timed."""
    return timed_serializer(secret_key, SALT).dumps({"r": request_id})


def _audit_email(held: ApprovalRequest, asker: User, address: str, outcome: str) -> None:
    record("admin_confirmation.email", actor=Actor.of(asker), outcome=outcome,
           detail={"request": held.id, "summary": held.summary, "to": address})
    db.session.commit()


@dataclass(frozen=True)
class Opened:
    """The request a link confirms, or (``request`` None) why the link does not work."""

    request: ApprovalRequest | None
    refusal: str = ""


def _checked(settings: Settings, request_id: int, token: str) -> Opened:
    try:
        named = timed_serializer(settings.secret_key, SALT).loads(
            token, max_age=int(requests.LIFETIME.total_seconds()))
    except SignatureExpired:
        return Opened(None, EXPIRED)
    except BadSignature:
        return Opened(None, NOT_VALID)
    held = db.session.get(ApprovalRequest, request_id)
    address = settings.admin_confirmation_email
    if (held is None or named != {"r": request_id} or held.kind != ApprovalKind.ADMIN_ROLE
            or not address or held.payload.get("confirm_to") != address):
        return Opened(None, NOT_VALID)
    state = queries.state_now(held, clock.utcnow())
    if state == ApprovalState.EXPIRED:
        return Opened(None, EXPIRED)
    return Opened(held) if state == ApprovalState.PENDING else Opened(None, USED)


def opened(settings: Settings, request_id: int, token: str) -> Opened:
    """The waiting request the link confirms, or why it does not work; the opening audited."""
    found = _checked(settings, request_id, token)
    record("admin_confirmation.open", actor=ANONYMOUS, outcome="ok" if found.request else
           "refused", detail={"request": request_id, "reason": found.refusal})
    db.session.commit()
    return found


def confirm(settings: Settings, request_id: int, token: str) -> decisions.Decision:
    """Carry out the request a live link names, once, as the confirming address's; a link
    that does not work is refused in words (and audited)."""
    found = _checked(settings, request_id, token)
    if found.request is None:
        record("admin_confirmation.confirm", actor=ANONYMOUS, outcome="refused",
               detail={"request": request_id, "reason": found.refusal})
        db.session.commit()
        return decisions.Decision(False, found.refusal)
    confirmer = Actor(f"{settings.admin_confirmation_email} (emailed confirmation)")
    return decisions.confirm_by_email(settings, request_id, confirmer)
