"""A hand-over: a link of its own for the merchant's phone, opened once, within minutes.

Its token is an itsdangerous payload ``{"m": merchant id, "h": nonce}`` with its own salt; the
nonce's row says whether it may still open. Only a link's newest hand-over opens (making one
retires the others), and opening is one conditional UPDATE, so two phones opening the same
code at once get one success between them. The phone then goes on with the merchant's own
link; the computer's page reads :func:`state_of` until the phone's status read finds
verification done (:func:`finish`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask_babel import lazy_gettext as _l
from itsdangerous import BadSignature
from sqlalchemy import and_, exists, select, update
from sqlalchemy.orm import aliased

from portal.core import clock
from portal.core.db import db
from portal.core.models.handover import PhoneHandover
from portal.core.models.verification import MerchantLink
from portal.core.timed_tokens import timed_serializer
from portal.domain.audit.service import Actor, record

SALT = "portal.phone-handover"
QR, SMS = "qr", "sms"
#: The hand-over's URL from its token (the page builds it on PORTAL_URL).
UrlOf = Callable[[str], str]
#: What the computer's page can read of a link's newest hand-over.
NONE, WAITING, OPENED, FINISHED, EXPIRED = "none", "waiting", "opened", "finished", "expired"
#: Why a code opens nothing, in the merchant's words (and language, read on the page).
NOT_VALID = _l("This code is not valid.")
LINK_OVER = _l("The link this code continues is no longer valid.")
USED = _l("This code was already used. Make a new one on your computer.")
EXPIRED_CODE = _l("This code has expired. Make a new one on your computer.")
REPLACED = _l("A newer code was made for this link. Use the newest one.")


@dataclass(frozen=True)
class Opened:
    """The outcome of opening a hand-over token: the merchant link it continues, or why not
    (``reason``, in the merchant's words); ``continues``, the link a genuine code that no
    longer opens was made for (its page speaks the link's language)."""

    link: MerchantLink | None
    reason: str = ""
    continues: MerchantLink | None = None


def start(secret_key: str, link: MerchantLink, via: str, minutes: int,
          actor: Actor) -> tuple[PhoneHandover, str]:
    """A new hand-over of ``link`` (the link's only one that opens from now on) and its token;
    audited; commits."""
    now = clock.utcnow()
    handover = PhoneHandover(link_id=link.id, merchant_id=link.merchant_id, via=via,
                             nonce=secrets.token_urlsafe(24), created_at=now,
                             expires_at=now + timedelta(minutes=minutes))
    db.session.add(handover)
    db.session.flush()
    record("handover.start", actor=actor, merchant_id=link.merchant_id,
           detail={"link": link.id, "handover": handover.id, "via": via,
                   "expiresAt": handover.expires_at.isoformat()})
    db.session.commit()
    return handover, token_of(secret_key, handover)


def token_of(secret_key: str, handover: PhoneHandover) -> str:
    """The signed token the hand-over's URL carries."""
    return timed_serializer(secret_key, SALT).dumps({"m": handover.merchant_id,
                                                     "h": handover.nonce})


def newest(link: MerchantLink) -> PhoneHandover | None:
    """The link's newest hand-over, the only one that can open, if any."""
    return db.session.scalars(select(PhoneHandover).where(PhoneHandover.link_id == link.id)
                              .order_by(PhoneHandover.id.desc()).limit(1)).first()


def open_once(secret_key: str, merchant_id: int, token: str, actor: Actor) -> Opened:
    """Open a hand-over token on the phone: its merchant link if it is genuine, the link's
    newest, not opened before, not expired, and its link still live; audited; commits."""
    try:
        payload = timed_serializer(secret_key, SALT).loads(token)
    except BadSignature:
        return Opened(None, NOT_VALID)
    handover = (db.session.scalar(select(PhoneHandover).where(
        PhoneHandover.nonce == payload.get("h"))) if isinstance(payload, dict) else None)
    if handover is None or handover.merchant_id != merchant_id or payload.get("m") != merchant_id:
        return Opened(None, NOT_VALID)
    now = clock.utcnow()
    link = db.session.get(MerchantLink, handover.link_id)
    if link is None or not link.is_live(now):
        return Opened(None, LINK_OVER, continues=link)
    if not _claim(handover.id, now):
        record("handover.open", actor=actor, outcome="refused", merchant_id=merchant_id,
               detail={"handover": handover.id})
        db.session.commit()
        return Opened(None, _why_not(handover, now), continues=link)
    record("handover.open", actor=actor, merchant_id=merchant_id,
           detail={"link": link.id, "handover": handover.id})
    db.session.commit()
    return Opened(link)


def _claim(handover_id: int, now: datetime) -> bool:
    """Mark the hand-over opened if it still may open, for this caller alone; commits."""
    newer = aliased(PhoneHandover)
    opens = and_(PhoneHandover.id == handover_id, PhoneHandover.opened_at.is_(None),
                 PhoneHandover.expires_at > now,
                 ~exists().where(newer.link_id == PhoneHandover.link_id,
                                 newer.id > PhoneHandover.id))
    result = db.session.execute(update(PhoneHandover).where(opens).values(opened_at=now),
                                execution_options={"synchronize_session": False})
    db.session.commit()
    return result.rowcount == 1


def _why_not(handover: PhoneHandover, now: datetime) -> str:
    db.session.refresh(handover)
    if handover.opened_at is not None:
        return USED
    if handover.expires_at <= now:
        return EXPIRED_CODE
    return REPLACED


def state_of(link: MerchantLink, now: datetime) -> tuple[str, PhoneHandover | None]:
    """Where the link's newest hand-over stands (NONE, WAITING, OPENED, FINISHED, EXPIRED)."""
    handover = newest(link)
    if handover is None:
        return NONE, None
    if handover.finished_at is not None:
        return FINISHED, handover
    if handover.opened_at is not None:
        return OPENED, handover
    return (WAITING if handover.expires_at > now else EXPIRED), handover


def finish(link: MerchantLink, actor: Actor) -> bool:
    """The phone's status read found verification done: mark the link's opened hand-over
    finished (what the computer's page waits for); audited; commits. False if none is open."""
    handover = newest(link)
    if handover is None or handover.opened_at is None or handover.finished_at is not None:
        return False
    handover.finished_at = clock.utcnow()
    record("handover.finish", actor=actor, merchant_id=link.merchant_id,
           detail={"handover": handover.id})
    db.session.commit()
    return True
