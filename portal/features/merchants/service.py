"""Finding merchants: a few SQL statements per page, however many merchants there are; each
row says who must act on the merchant, since when and by when (the worklist's items and its
actor rule), overdue ones first."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, Select, and_, case, func, or_, select

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.step import DONE_STATES, StepDraft
from portal.core.models.user import User
from portal.core.pagination import Page, clamped
from portal.domain.health.dormancy import dormant
from portal.domain.onboarding.merchant_filters import contains, exact, of_status
from portal.domain.onboarding.progress import not_needed
from portal.domain.onboarding.stalling import stalling
from portal.domain.onboarding.steps import STEPS
from portal.domain.worklist.actors import FILTERS, waits_for
from portal.domain.worklist.reasons import Item, overdue
from portal.domain.worklist.service import open_items
from portal.gateway.onboarding.checklist_words import ChecklistState

PAGE_SIZE = 20
#: The most matches counted and paged through (the 50 pages of the most recently active): a
#: count and an offset that stay bounded however many merchants there are; search or filter
#: to reach the others.
COUNT_CAP = 1000
TOTAL_STEPS = len(STEPS)
#: The owner filter's choices beside "anyone": the signed-in user's merchants, and those nobody
#: owns (the ones an ops user may take).
MINE, NOBODY = "mine", "nobody"


@dataclass(frozen=True)
class MerchantRow:
    """One list row: the merchant, how many of the nine steps are done, its owner's email
    (None: nobody owns it) and its most pressing open item (None: nothing open)."""

    merchant: Merchant
    steps_done: int
    owner_email: str | None = None
    item: Item | None = None


@dataclass(frozen=True)
class OwnerFilter:
    """Whose merchants: ``user_id``'s, or with ``nobody`` those without an owner; neither: all."""

    user_id: int | None = None
    nobody: bool = False

    def where(self) -> list[ColumnElement[bool]]:
        """The filter as WHERE clauses (none when it is everyone's)."""
        if self.nobody:
            return [Merchant.owner_id.is_(None)]
        return [Merchant.owner_id == self.user_id] if self.user_id is not None else []


MerchantPage = Page[MerchantRow]


def owner_filter(choice: str, user_id: int) -> OwnerFilter:
    """The list's owner filter as the form chose it: ``mine`` (``user_id``'s), ``nobody``, or
    anything else: everyone's."""
    return OwnerFilter(user_id=user_id if choice == MINE else None, nobody=choice == NOBODY)


def _count(filters: list[ColumnElement[bool]]) -> int:
    """How many merchants match, counting no further than one past ``COUNT_CAP``."""
    matches = select(Merchant.id).where(*filters).limit(COUNT_CAP + 1).subquery()
    return db.session.scalar(select(func.count()).select_from(matches)) or 0


def _ordered_ids(filters: list[ColumnElement[bool]], few: bool,
                 first: list[int]) -> Select[tuple[int]]:
    """The matching merchants' ids, those in ``first`` (overdue) first, then most recent
    activity first. When the matches are ``few`` (a search under the cap) they are found
    through the search's indexes first and then sorted: left to itself the planner walks the
    last-activity index hoping to fill a page early, and reads every merchant to find a
    handful."""
    if not few:
        ids, active = Merchant.id, Merchant.last_activity_at
        query = select(Merchant.id).where(*filters)
    else:
        matches = (select(Merchant.id, Merchant.last_activity_at).where(*filters)
                   .cte("matches").prefix_with("MATERIALIZED"))
        ids, active = matches.c.id, matches.c.last_activity_at
        query = select(matches.c.id)
    early = [case((ids.in_(first), 0), else_=1)] if first else []
    return query.order_by(*early, active.desc(), ids.desc())


def _shown(items: list[Item], who: str) -> Item:
    """The row's item: the most pressing, or the most pressing for the party filtered by."""
    party = FILTERS.get(who)
    return next((item for item in items if waits_for(item) == party), items[0])


def search_merchants(query: str = "", status: str = "", page: int = 1,
                     per_page: int = PAGE_SIZE,
                     stale_before: datetime | None = None,
                     dormant_before: datetime | None = None,
                     owner: OwnerFilter | None = None, settings: Settings | None = None,
                     now: datetime | None = None, who: str = "") -> MerchantPage:
    """Merchants matching a name, full PAN, external or onboarding id, and a status; with
    ``stale_before``, only those stalling since then (the dashboard's stale merchants); with
    ``dormant_before``, only those live with no hold since then (its dormant ones); with
    ``owner``, only theirs (or nobody's). Each row names its owner; with ``settings`` and
    ``now``, also its most pressing open item (overdue ones first), and with ``who`` (a
    worklist filter value: us, merchant, gateway) only those with an item waiting for them.

    A query that is some merchant's exact external id, onboarding id or full PAN finds those
    merchants only, through their indexes; any other query matches anywhere in the names and
    ids. Two statements per page, three for a query that is no exact identifier; beyond
    ``COUNT_CAP`` matches the page says there are more and pages through those first ones."""
    query = query.strip()
    filters = (of_status(status) + ([] if stale_before is None else [stalling(stale_before)])
               + ([] if dormant_before is None else [dormant(dormant_before)])
               + (owner.where() if owner is not None else []))
    if query:
        total = _count([*filters, exact(query)])
        filters = [*filters, exact(query) if total else contains(query)]
        total = total or _count(filters)
    else:
        total = _count(filters)
    attention = open_items(filters, settings, now) if settings and now else {}
    if FILTERS.get(who) is not None:
        filters = [*filters, Merchant.id.in_(
            [i for i, items in attention.items()
             if any(waits_for(item) == FILTERS[who] for item in items)])]
        total = _count(filters)
    late = [i for i, items in attention.items() if now and overdue(items[0], now)]
    capped = total > COUNT_CAP
    total = min(total, COUNT_CAP)
    page = clamped(page, total, per_page)
    order = ([case((Merchant.id.in_(late), 0), else_=1)] if late else []) + [
        Merchant.last_activity_at.desc(), Merchant.id.desc()]
    paged = (_ordered_ids(filters, few=bool(query) and not capped, first=late)
             .limit(min(per_page, total - (page - 1) * per_page))  # not past the cap
             .offset((page - 1) * per_page).subquery())
    # steps done counted for the page's merchants only, one indexed look-up each; a step the
    # gateway's checklist says is not needed counts done, whatever its draft (added below)
    done = (select(func.count(StepDraft.id))
            .where(StepDraft.merchant_id == Merchant.id,
                   StepDraft.state.in_([str(s) for s in DONE_STATES]),
                   ~or_(*(and_(StepDraft.step == step.key, func.coalesce(
                       Merchant.checklist[step.checklist_key].as_string(), "")
                               == ChecklistState.NOT_APPLICABLE)
                          for step in STEPS if step.checklist_key)))
            .correlate(Merchant).scalar_subquery())
    rows = db.session.execute(
        select(Merchant, done, User.email).join(paged, paged.c.id == Merchant.id)
        .outerjoin(User, User.id == Merchant.owner_id).order_by(*order)
        .execution_options(populate_existing=True))  # open_items loaded some columns only
    return MerchantPage([MerchantRow(m, int(n) + sum(not_needed(m, s) for s in STEPS), email,
                                     _shown(attention[m.id], who) if m.id in attention else None)
                         for m, n, email in rows], total, page, per_page, capped)
