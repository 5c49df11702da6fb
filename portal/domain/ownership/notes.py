"""Notes on a merchant: anyone of the staff adds one; each is kept as written, with who wrote
it and when, and audited (the text stays out of the audit trail, which many read)."""

from __future__ import annotations

from sqlalchemy import func, select

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.note import MerchantNote
from portal.core.models.user import User
from portal.domain.audit.service import Actor, record

#: The longest note kept, in characters.
MAX_LENGTH = 2000
#: How many of the newest notes the merchant's summary shows.
SHOWN = 3


def add_note(merchant: Merchant, text: str, author: User) -> MerchantNote:
    """Keep ``text`` as a note on ``merchant`` by ``author``; audited; no commit."""
    note = MerchantNote(merchant_id=merchant.id, author_id=author.id, author_label=author.email,
                        at=clock.utcnow(), text=text.strip()[:MAX_LENGTH])
    db.session.add(note)
    db.session.flush()
    record("merchant.note", merchant_id=merchant.id, actor=Actor.of(author),
           detail={"note": note.id, "characters": len(note.text)})
    return note


def notes_of(merchant: Merchant, limit: int | None = None) -> list[MerchantNote]:
    """The merchant's notes, newest first (``limit`` of them, or all)."""
    query = (select(MerchantNote).where(MerchantNote.merchant_id == merchant.id)
             .order_by(MerchantNote.at.desc(), MerchantNote.id.desc()))
    return list(db.session.scalars(query.limit(limit) if limit else query))


def note_count(merchant: Merchant) -> int:
    """How many notes the merchant has."""
    return db.session.scalar(select(func.count(MerchantNote.id))
                             .where(MerchantNote.merchant_id == merchant.id)) or 0
