"""Rows read fresh from the portal's database, to check what a request stored."""

from __future__ import annotations

from typing import Any, TypeVar

from flask import Flask
from sqlalchemy import text

from portal.core.db import db
from portal.core.models.merchant import Merchant

Row = TypeVar("Row")

#: A merchant written in plain SQL, as a script or a restore writes one (no portal code runs):
#: parameters ``ext``, ``name`` and ``status`` (None: no status yet).
MERCHANT_SQL = text(
    "INSERT INTO merchants (external_onboarding_id, pan, display_name, legal_name, status, "
    "create_state, created_at, last_activity_at, checklist, documents_outstanding) VALUES "
    "(:ext, '', :name, '', :status, 'created', '2026-01-01', '2026-01-01', '{}', '[]')")


def fresh(app: Flask, model: type[Row], **columns: Any) -> Row:
    """The one ``model`` row with these column values, read in its own app context and
    detached, so its loaded columns stay readable after the context ends."""
    with app.app_context():
        row = db.session.query(model).filter_by(**columns).one()
        db.session.expunge(row)
        return row


def stored(app: Flask, merchant_id: int) -> Merchant:
    """The merchant row, read fresh."""
    return fresh(app, Merchant, id=merchant_id)
