"""Rows read fresh from the portal's database, to check what a request stored."""

from __future__ import annotations

from typing import Any, TypeVar

from flask import Flask

from portal.db import db
from portal.models.merchant import Merchant

Row = TypeVar("Row")


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
