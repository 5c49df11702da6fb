"""The token a payment link's URL carries: signed, timed on the portal's clock, bound to one
link and its current nonce.

The token is an itsdangerous ``URLSafeTimedSerializer`` payload ``{"l": link id, "n": nonce}``
with its own salt. The signature makes it unforgeable; the row decides the rest: resending
replaces the nonce (an older email's link then says a newer one was sent), cancelling withdraws
it, and its expiry is the row's.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask_babel import lazy_gettext as _l
from itsdangerous import BadData, BadSignature, SignatureExpired, URLSafeTimedSerializer

from portal.core.db import db
from portal.core.models.payment_link import LinkState, PaymentLink
from portal.core.timed_tokens import timed_serializer

SALT = "portal.payment-link"
#: What a customer reads when a link cannot be used, by reason (in the page's language).
NOT_VALID = _l("This link is not valid. Check that you opened the whole link from the email.")
EXPIRED = _l("This payment link has expired.")
REPLACED = _l("A newer payment link was sent for this payment: use the link in the most recent "
              "email.")
WITHDRAWN = _l("This payment link was withdrawn.")


def _serializer(secret_key: str) -> URLSafeTimedSerializer:
    return timed_serializer(secret_key, SALT)


def new_nonce() -> str:
    """A fresh nonce for a link's next token."""
    return secrets.token_urlsafe(24)


def token_for(secret_key: str, link: PaymentLink) -> str:
    """The token of ``link`` as it stands (its current nonce)."""
    return _serializer(secret_key).dumps({"l": link.id, "n": link.nonce})


@dataclass(frozen=True)
class Checked:
    """The link a token opens, or the HTTP status and why not (in the customer's words)."""

    link: PaymentLink | None
    status: int = 200
    reason: str = ""
    #: The link a genuine token was made for, once it opens no more (expired, replaced,
    #: withdrawn): its refusal is drawn in the link's language, and takes a language pick.
    over: PaymentLink | None = None


def check(secret_key: str, link_id: int, token: str, lifetime: timedelta,
          now: datetime) -> Checked:
    """The live link ``token`` opens for ``link_id``: 403 if forged or for another link, 410 if
    replaced by a newer one, withdrawn or expired (``over`` then names the link)."""
    serializer = _serializer(secret_key)
    try:
        payload = serializer.loads(token, max_age=int(lifetime.total_seconds()))
    except SignatureExpired as exc:  # genuine, only old: the signature was checked
        return Checked(None, 410, EXPIRED, over=_named(serializer, exc.payload, link_id))
    except BadSignature:
        return Checked(None, 403, NOT_VALID)
    link = _named(serializer, payload, link_id)
    if link is None:
        return Checked(None, 403, NOT_VALID)
    if not secrets.compare_digest(str(payload.get("n", "")), link.nonce):
        return Checked(None, 410, REPLACED, over=link)
    if link.state == LinkState.CANCELLED:
        return Checked(None, 410, WITHDRAWN, over=link)
    if link.state == LinkState.WAITING and link.expires_at <= now:
        return Checked(None, 410, EXPIRED, over=link)
    return Checked(link)


def _named(serializer: URLSafeTimedSerializer, payload: object,
           link_id: int) -> PaymentLink | None:
    """The link a signed payload names, when it is ``link_id``'s (an expired signature's
    payload comes raw, still to be loaded)."""
    if isinstance(payload, bytes):
        try:
            payload = serializer.load_payload(payload)
        except BadData:
            return None
    if not isinstance(payload, dict) or payload.get("l") != link_id:
        return None
    return db.session.get(PaymentLink, link_id, populate_existing=True)
