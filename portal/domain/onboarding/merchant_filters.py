"""What the merchants list is narrowed by (a search and a status), as SQL conditions: the list's
page and the API's list read the same ones."""

from __future__ import annotations

from sqlalchemy import ColumnElement, or_, select

from portal.core.db import db
from portal.core.encryption import current_cipher
from portal.core.label_tables import NOT_CREATED
from portal.core.models.merchant import Merchant
from portal.core.models.merchant_search import names_contain


def exact(query: str) -> ColumnElement[bool]:
    """Merchants whose external id, onboarding id or full PAN is ``query``: unique or indexed
    columns, so found without reading the table."""
    return or_(Merchant.external_onboarding_id == query, Merchant.onboarding_id == query,
               Merchant.pan_index == current_cipher().pan_index(query))


def contains(query: str) -> ColumnElement[bool]:
    """Merchants with ``query`` anywhere in a name or an id, or as their full PAN."""
    return or_(names_contain(query), Merchant.pan_index == current_cipher().pan_index(query))


def of_status(status: str) -> list[ColumnElement[bool]]:
    """Merchants in ``status`` (NOT_CREATED: none yet); no condition for no status."""
    if status == NOT_CREATED:
        return [Merchant.status.is_(None)]
    return [Merchant.status == status] if status else []


def matching(query: str, status: str) -> list[ColumnElement[bool]]:
    """The conditions of a search and a status: a query that is some merchant's exact
    identifier finds those only, any other matches anywhere in the names and ids."""
    query = query.strip()
    if not query:
        return of_status(status)
    found = db.session.scalar(select(Merchant.id).where(exact(query)).limit(1))
    return [*of_status(status), exact(query) if found is not None else contains(query)]
