"""The gate a hold passes just before it is sent: a conditional UPDATE of the merchant's row,
``payments_stopped_at`` still empty, in the same transaction as the hold's claim. A pause writes
that row too, so the two serialise on it (SQLite's one writer, PostgreSQL's row lock and its
re-check of the WHERE): a hold claimed first was placed before the pause; a pause recorded first
refuses the hold. Never a hold sent after a pause was recorded."""

from __future__ import annotations

from sqlalchemy import update

from portal.core.db import db
from portal.core.models.merchant import Merchant


def pass_gate(merchant_id: int) -> bool:
    """Lock the merchant's row for the caller's transaction while its payments are not
    stopped; False when they are. No commit: the caller's claim commits with it."""
    passed = db.session.execute(
        update(Merchant).where(Merchant.id == merchant_id, Merchant.payments_stopped_at.is_(None))
        .values(payments_stopped_at=None).execution_options(synchronize_session=False))
    return passed.rowcount == 1
