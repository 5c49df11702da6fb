"""Finding merchants: two SQL statements per page, however many merchants there are."""

from __future__ import annotations

import math
from dataclasses import dataclass

from sqlalchemy import ColumnElement, func, or_, select

from portal.db import db
from portal.encryption import current_cipher
from portal.label_tables import NOT_CREATED
from portal.models.merchant import Merchant
from portal.models.step import DONE_STATES, StepDraft
from portal.onboarding.steps import STEPS
from portal.pagination import Page

PAGE_SIZE = 20
TOTAL_STEPS = len(STEPS)


@dataclass(frozen=True)
class MerchantRow:
    """One list row: the merchant and how many of the nine steps are done."""

    merchant: Merchant
    steps_done: int


MerchantPage = Page[MerchantRow]


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _filters(query: str, status: str) -> list[ColumnElement[bool]]:
    filters: list[ColumnElement[bool]] = []
    query = query.strip()
    if query:
        like = _like(query)
        filters.append(or_(
            Merchant.display_name.ilike(like, escape="\\"),
            Merchant.legal_name.ilike(like, escape="\\"),
            Merchant.external_onboarding_id.ilike(like, escape="\\"),
            Merchant.onboarding_id.ilike(like, escape="\\"),
            Merchant.pan_index == current_cipher().pan_index(query),
        ))
    if status == NOT_CREATED:
        filters.append(Merchant.status.is_(None))
    elif status:
        filters.append(Merchant.status == status)
    return filters


def search_merchants(query: str = "", status: str = "", page: int = 1,
                     per_page: int = PAGE_SIZE) -> MerchantPage:
    """Merchants matching a name, full PAN, external or onboarding id, and a status."""
    filters = _filters(query, status)
    total = db.session.scalar(select(func.count(Merchant.id)).where(*filters)) or 0
    page = min(max(page, 1), max(1, math.ceil(total / per_page)))
    order = (Merchant.last_activity_at.desc(), Merchant.id.desc())
    # page first, then count steps for that page's merchants only
    paged = (select(Merchant.id).where(*filters).order_by(*order)
             .limit(per_page).offset((page - 1) * per_page).subquery())
    done = (select(StepDraft.merchant_id, func.count(StepDraft.id).label("done"))
            .where(StepDraft.merchant_id.in_(select(paged.c.id)),
                   StepDraft.state.in_([str(s) for s in DONE_STATES]))
            .group_by(StepDraft.merchant_id).subquery())
    rows = db.session.execute(
        select(Merchant, func.coalesce(done.c.done, 0))
        .join(paged, paged.c.id == Merchant.id)
        .outerjoin(done, done.c.merchant_id == Merchant.id)
        .order_by(*order))
    return MerchantPage([MerchantRow(m, int(n)) for m, n in rows], total, page, per_page)
