""""Needs my action": what the merchants a user owns need now (an admin also sees everyone's,
and their approvals), most urgent first, in a fixed number of statements however many
merchants there are; the navigation's count in one statement (with the unread notices)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache, partial

from sqlalchemy import (
    ColumnElement,
    Select,
    and_,
    bindparam,
    case,
    func,
    literal,
    null,
    or_,
    select,
    update,
)
from sqlalchemy.orm import load_only

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.notice import Notice
from portal.core.models.outbox import LIVE_STATES, OutboxItem
from portal.core.models.step import StepDraft, StepState
from portal.core.models.user import Role, User
from portal.core.onboarding_statuses import FINAL_STATUSES
from portal.domain.audit.service import Actor, record
from portal.domain.four_eyes.queries import waiting_count, waiting_for
from portal.domain.ownership.service import users_by_id
from portal.domain.payments.setup_requests import open_count, open_requests
from portal.domain.worklist.facts import QUEUED_FOR_LONG, SENT_STEPS, columns, facts_of, moments
from portal.domain.worklist.facts import may_need_action as candidates
from portal.domain.worklist.reasons import Item, Reason, Steps, at, items_of, pressing
from portal.gateway.onboarding.vocabulary import OnboardingStatus

#: The most merchants everyone's tab reads (those idle longest): its cost stays bounded
#: however many merchants are under way.
EVERYONE_CAP = 1000
#: The columns of a merchant the items' words read (no others are loaded).
_NAMED = (Merchant.id, Merchant.status, Merchant.rejection_told_at, Merchant.last_activity_at,
          Merchant.display_name, Merchant.legal_name, Merchant.external_onboarding_id,
          Merchant.owner_id)


@dataclass(frozen=True)
class OwnerLoad:
    """One person's share: the merchants they own still onboarding, and their items."""

    owner: User | None
    onboarding: int
    items: int


@dataclass(frozen=True)
class Worklist:
    """The items, most urgent first; for everyone's, who owns each merchant and who carries
    what."""

    items: list[Item]
    owners: dict[int, User] = field(default_factory=dict)
    load: list[OwnerLoad] = field(default_factory=list)
    #: Everyone's tab read only this many merchants (those idle longest) of those that may need
    #: action, and more may (0: it read them all).
    capped: int = 0


def _merchants(owner_id: int | None) -> Select:
    """The merchants that may need action (the owner's), with their facts; only the columns
    the words read (no PAN decrypted); the moments of :func:`moments` bound."""
    query = (select(Merchant, *(value.label(name) for name, value in columns().items()))
             .where(candidates()).options(load_only(*_NAMED)))
    if owner_id is not None:
        return query.where(Merchant.owner_id == owner_id)
    return query.order_by(Merchant.last_activity_at, Merchant.id).limit(EVERYONE_CAP + 1)


def _steps(ids: set[int], now: datetime) -> dict[int, Steps]:
    """Each merchant's refused steps and long-queued steps (two statements)."""
    found: dict[int, Steps] = {i: Steps() for i in ids}
    for merchant_id, key in db.session.execute(
            select(StepDraft.merchant_id, StepDraft.step).where(
                StepDraft.merchant_id.in_(ids), StepDraft.state == StepState.NEEDS_ATTENTION,
                StepDraft.step.in_(SENT_STEPS)).order_by(StepDraft.id)):
        found[merchant_id].refused.append(key)
    for merchant_id, key in db.session.execute(
            select(OutboxItem.merchant_id, OutboxItem.step).where(
                OutboxItem.merchant_id.in_(ids), OutboxItem.state.in_(LIVE_STATES),
                OutboxItem.created_at <= now - QUEUED_FOR_LONG).order_by(OutboxItem.id)):
        found[merchant_id].queued.append(key)
    return found


def _approvals(viewer: User) -> list[Item]:
    waiting = waiting_for(viewer.id) if viewer.role == Role.ADMIN else 0
    if not waiting:
        return []
    plural = "s wait" if waiting > 1 else " waits"
    return [Item(Reason.APPROVALS, None, f"{waiting} approval{plural} for a second admin: you.",
                 "Approvals", "approvals.index")]


def _setups(viewer: User) -> list[Item]:
    """An admin's: the merchants whose payments an ops user asked to be set up."""
    if viewer.role != Role.ADMIN:
        return []
    return [Item(Reason.PAYMENTS_SETUP, merchant,
                 f"{asker.email if asker else 'A colleague'} asked on {at(request.asked_at)} for "
                 "its payments to be set up: save its payment credentials.", "Set up payments",
                 "payments.credentials", {"merchant_id": merchant.id}, since=request.asked_at)
            for request, merchant, asker in open_requests()]


def worklist(viewer: User, settings: Settings, now: datetime, *,
             everyone: bool = False) -> Worklist:
    """The viewer's items (every owner's when ``everyone``), overdue first, then most urgent:
    the merchants
    with their facts, their steps' names, the viewer's approvals, and for everyone's the
    owners and each one's load."""
    rows = [(row.Merchant, facts_of(row)) for row in db.session.execute(
        _merchants(None if everyone else viewer.id), moments(settings, now))]
    capped = EVERYONE_CAP if len(rows) > EVERYONE_CAP else 0
    rows = rows[:EVERYONE_CAP]
    wordy = {m.id for m, facts in rows if facts.refused or facts.queued_since}
    steps = _steps(wordy, now) if wordy else {}
    items = [item for merchant, facts in rows
             for item in items_of(merchant, facts, settings, now, steps.get(merchant.id))]
    items = sorted([*items, *_approvals(viewer), *_setups(viewer)],
                   key=partial(pressing, now=now))
    if not everyone:
        return Worklist(items)
    return _with_owners(items, capped)


def open_items(filters: list[ColumnElement[bool]], settings: Settings, now: datetime,
               cap: int = EVERYONE_CAP) -> dict[int, list[Item]]:
    """The open items of each merchant matching ``filters`` that has any, most pressing first
    (of the ``cap`` most recently active that may): what the merchants list shows, sorts and
    filters by. One statement; its merchants are loaded with the words' columns only."""
    rows = db.session.execute(
        select(Merchant, *(value.label(name) for name, value in columns().items()))
        .where(candidates(), *filters).options(load_only(*_NAMED))
        .order_by(Merchant.last_activity_at.desc(), Merchant.id.desc()).limit(cap),
        moments(settings, now))
    found = {}
    for row in rows:
        items = items_of(row.Merchant, facts_of(row), settings, now)
        if items:
            found[row.Merchant.id] = sorted(items, key=partial(pressing, now=now))
    return found


def _with_owners(items: list[Item], capped: int) -> Worklist:
    """Who owns each merchant, and each owner's load (one statement each)."""
    onboarding = dict(db.session.execute(
        select(Merchant.owner_id, func.count(Merchant.id))
        .where(or_(Merchant.status.is_(None), Merchant.status.not_in(FINAL_STATUSES)))
        .group_by(Merchant.owner_id)).all())
    counted = Counter(item.merchant.owner_id for item in items
                      if item.merchant is not None and item.reason != Reason.PAYMENTS_SETUP)
    owners = users_by_id(set(onboarding) | set(counted))
    ids = sorted(set(onboarding) | set(counted), key=lambda i: (
        i is None, owners[i].email if i in owners else ""))
    load = [OwnerLoad(owners.get(i) if i is not None else None, onboarding.get(i, 0),
                      counted.get(i, 0)) for i in ids]
    return Worklist(items, owners, load, capped)


@dataclass(frozen=True)
class NavCounts:
    """The navigation's figures for one user: their merchants' items, their unread notices,
    and (an admin's) the approvals waiting for them."""

    needs_action: int
    unread: int
    approvals: int = 0
    #: An admin's: the open requests to set up a merchant's payments.
    setups: int = 0


#: The bound parameters of the navigation's statement besides :func:`moments`.
_VIEWER = bindparam("viewer")
_NOW = bindparam("now")


@cache
def _nav_statement(admin: bool) -> Select:
    """The navigation's statement for an admin or anyone else, built once per process (its
    values bound: the viewer's id, now and :func:`moments`)."""
    unread = select(func.count(Notice.id)).where(
        Notice.user_id == _VIEWER, Notice.read_at.is_(None)).scalar_subquery()
    approvals = waiting_count(_VIEWER, _NOW).scalar_subquery() if admin else literal(0)
    setups = open_count().scalar_subquery() if admin else literal(0)
    one = select(literal(1).label("one")).subquery()
    # read only in a merchant's row: in the empty row of a viewer who owns none, the holds'
    # sub-selects would search every payment for a merchant id that is NULL
    values = {name: case((Merchant.id.is_not(None), value), else_=null())
              for name, value in columns().items()}
    return (select(unread.label("unread"), approvals.label("approvals"),
                   setups.label("setups"), Merchant,
                   *(v.label(k) for k, v in values.items()))
            .select_from(one)
            .outerjoin(Merchant, and_(Merchant.owner_id == _VIEWER, candidates()))
            .options(load_only(*_NAMED)))


def nav_counts(viewer: User, settings: Settings, now: datetime) -> NavCounts:
    """How many items the merchants the viewer owns make, how many notices are unread and (an
    admin's) how many approvals wait for them: one statement, a row per merchant needing them
    (one row, empty, when none does)."""
    rows = db.session.execute(_nav_statement(viewer.role == Role.ADMIN), {
        _VIEWER.key: viewer.id, _NOW.key: now, **moments(settings, now)}).all()
    items = sum(len(items_of(row.Merchant, facts_of(row), settings, now))
                for row in rows if row.Merchant is not None)
    return NavCounts(items, int(rows[0].unread or 0), int(rows[0].approvals or 0),
                     int(rows[0].setups or 0))


def mark_told(merchant: Merchant, actor: User) -> bool:
    """Note that the rejected merchant was told; False if it was already (or is not rejected);
    audited; no commit."""
    now_told = db.session.execute(
        update(Merchant).where(Merchant.id == merchant.id,
                               Merchant.status == OnboardingStatus.REJECTED,
                               Merchant.rejection_told_at.is_(None))
        .values(rejection_told_at=clock.utcnow()),
        execution_options={"synchronize_session": False})
    if now_told.rowcount != 1:
        return False
    record("merchant.rejection_told", merchant_id=merchant.id,
           actor=Actor.of(actor))
    return True
