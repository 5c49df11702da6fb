"""Links for sub-merchants: a portal URL, signed and bound to one merchant and one stored nonce.

The token is an itsdangerous ``URLSafeTimedSerializer`` payload ``{"m": merchant id, "n":
nonce}`` with its own salt, timed on the portal's clock. The nonce's row is what makes a link
revocable and what its 24 hours are checked against; the signature makes it unforgeable.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from flask_babel import lazy_gettext as _l
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import select

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.verification import MerchantLink
from portal.core.timed_tokens import timed_serializer
from portal.domain.audit.service import Actor, record
from portal.domain.onboarding.locks import verification_complete
from portal.domain.onboarding.progress import documents_asked, verification_missing

SALT = "portal.merchant-verification-link"
LIFETIME = timedelta(hours=24)

#: Who opening a link is credited to: the merchant, who signs in to nothing.
MERCHANT = Actor("merchant link")
#: Why a link opens nothing, in the merchant's words (and language, read on the page).
NOT_VALID = _l("This link is not valid.")
WITHDRAWN = _l("This link was withdrawn.")
EXPIRED = _l("This link has expired.")


def _serializer(secret_key: str) -> URLSafeTimedSerializer:
    return timed_serializer(secret_key, SALT)


@dataclass(frozen=True)
class LinkCheck:
    """The outcome of opening a link: the live link, or the HTTP status and why not; ``over``,
    a genuine link of this merchant that expired or was withdrawn (its page offers a new one)."""

    link: MerchantLink | None
    status: int = 200
    reason: str = ""
    over: MerchantLink | None = None


class LinkRefused(Exception):
    """No link may be issued for this merchant now; the message says why, in words for ops."""


def refusal(merchant: Merchant) -> str | None:
    """Why no link may be issued for ``merchant``, or None: it finished verification and the
    gateway asks nothing more of it, or the steps its verification page needs are not all
    sent yet (the merchant would only read that they cannot start)."""
    if verification_complete(merchant) and documents_asked(merchant):
        return None  # the link's page takes the documents asked for
    if verification_complete(merchant):
        return ("The merchant has finished verification, so no link was created: there is "
                "nothing left for them to do on the verification page.")
    missing = verification_missing(merchant)
    if missing:
        return ("No link was created: the merchant's verification page opens once every step "
                f"before it is sent. Still missing: {'; '.join(missing)}.")
    return None


def issue(secret_key: str, merchant: Merchant, actor: Actor) -> tuple[MerchantLink, str]:
    """Store a new link for ``merchant`` and return it with its token; commits. LinkRefused
    once the merchant has finished verification (the page offers none then)."""
    reason = refusal(merchant)
    if reason:
        raise LinkRefused(reason)
    now = clock.utcnow()
    link = MerchantLink(merchant_id=merchant.id, nonce=secrets.token_urlsafe(24), created_at=now,
                        expires_at=now + LIFETIME, created_by=actor.label)
    db.session.add(link)
    db.session.flush()
    record("merchant_link.issue", actor=actor, merchant_id=merchant.id,
           detail={"link": link.id, "expiresAt": link.expires_at.isoformat()})
    db.session.commit()
    return link, token_of(secret_key, link)


def token_of(secret_key: str, link: MerchantLink) -> str:
    """A token that opens ``link`` (its row, not the token, sets when it ends): the phone a
    hand-over reaches goes on with one."""
    return _serializer(secret_key).dumps({"m": link.merchant_id, "n": link.nonce})


def revoke(merchant: Merchant, link_id: int, actor: Actor) -> bool:
    """Revoke one of the merchant's links; False if there is no such live link; commits."""
    link = db.session.get(MerchantLink, link_id)
    if link is None or link.merchant_id != merchant.id or link.revoked_at is not None:
        return False
    link.revoked_at, link.revoked_by = clock.utcnow(), actor.label
    record("merchant_link.revoke", actor=actor, merchant_id=merchant.id, detail={"link": link.id})
    db.session.commit()
    return True


def links_of(merchant: Merchant) -> list[MerchantLink]:
    """The merchant's links, newest first."""
    return list(db.session.scalars(
        select(MerchantLink).where(MerchantLink.merchant_id == merchant.id)
        .order_by(MerchantLink.created_at.desc(), MerchantLink.id.desc())))


def check(secret_key: str, merchant_id: int, token: str) -> LinkCheck:
    """Open a link for ``merchant_id``: 403 if forged or for another merchant, 410 if over."""
    serializer = _serializer(secret_key)
    try:
        payload = serializer.loads(token, max_age=int(LIFETIME.total_seconds()))
    except SignatureExpired:
        payload = serializer.loads(token)  # genuine, only old: which link it was
    except BadSignature:
        return LinkCheck(None, 403, NOT_VALID)
    if not isinstance(payload, dict) or payload.get("m") != merchant_id:
        return LinkCheck(None, 403, NOT_VALID)
    link = db.session.scalar(select(MerchantLink).where(MerchantLink.nonce == payload.get("n")))
    if link is None or link.merchant_id != merchant_id:
        return LinkCheck(None, 403, NOT_VALID)
    if link.revoked_at is not None:
        return LinkCheck(None, 410, WITHDRAWN, over=link)
    if not link.is_live(clock.utcnow()):
        return LinkCheck(None, 410, EXPIRED, over=link)
    return LinkCheck(link)


def mark_opened(link: MerchantLink) -> None:
    """Remember when the merchant last opened the link; commits."""
    link.last_opened_at = clock.utcnow()
    record("merchant_link.open", actor=MERCHANT, merchant_id=link.merchant_id,
           detail={"link": link.id})
    db.session.commit()
