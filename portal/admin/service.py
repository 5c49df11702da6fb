"""The dashboard's data, in a fixed number of SQL statements however many merchants there are."""

from __future__ import annotations

import csv
import io
import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import ColumnElement, func, or_, select, union_all
from sqlalchemy.orm import load_only

from portal import clock
from portal.admin.sentences import audit_sentence
from portal.db import db
from portal.gateway.onboarding_shapes import Checklist, OnboardingStatus
from portal.http import MAX_ROW_ID
from portal.label_tables import NOT_CREATED, TABLES
from portal.labels import Kind, label
from portal.models.audit import AuditEvent
from portal.models.merchant import Merchant
from portal.models.step import DONE_STATES, StepDraft
from portal.models.user import User
from portal.onboarding.progress import stepper
from portal.onboarding.stalling import stale_cutoff, stalling
from portal.onboarding.status_counts import status_counts
from portal.onboarding.status_history import is_final
from portal.pagination import Page
from portal.spreadsheet_cells import safe_cell

#: The chart's bars, in the order a record moves through them.
STATUS_ORDER = [NOT_CREATED, *(s.value for s in OnboardingStatus)]
AUDIT_PAGE_SIZE = 50
#: How many recently active and how many stalling merchants the dashboard lists.
RECENT_SHOWN = 50
STALE_SHOWN = 20
#: The most stalling merchants counted (as the list counts its matches, see COUNT_CAP there):
#: a count that stays bounded however many merchants stall.
STALE_COUNT_CAP = 1000
#: The checklist's items, as the gateway names them (documentsToBeUploaded is its own column).
CHECKLIST_ITEMS = [name for name in Checklist.model_fields if name != "documentsToBeUploaded"]


@dataclass(frozen=True)
class MerchantProgress:
    """One merchant's row: what is outstanding, which steps are not done, whether it stalls."""

    merchant: Merchant
    incomplete_steps: list[str]
    stale: bool


@dataclass(frozen=True)
class Dashboard:
    """Everything the dashboard shows except the audit trail: bounded however many merchants."""

    #: The most recently active merchants (``RECENT_SHOWN`` at most).
    rows: list[MerchantProgress]
    counts: list[tuple[str, int]]
    stale_after_days: int
    #: The merchants without progress for longer than the limit, oldest first (``STALE_SHOWN``
    #: at most) and how many there are in all, counted up to ``STALE_COUNT_CAP`` (then
    #: ``stale_capped``: there are more).
    stale: list[MerchantProgress]
    stale_total: int
    stale_capped: bool = False

    @property
    def largest_count(self) -> int:
        """The longest bar's count (at least 1, to scale the chart)."""
        return max([1, *(count for _status, count in self.counts)])


def dashboard(stale_after_days: int) -> Dashboard:
    """The counts per status, the stalling merchants and the most recent ones: three statements,
    each reading a bounded slice (the counts a row per status, kept by every status change;
    the stalling merchants counted up to ``STALE_COUNT_CAP``)."""
    cutoff = stale_cutoff(stale_after_days, clock.utcnow())
    stale = stalling(cutoff)
    counted = {status or NOT_CREATED: count for status, count in status_counts().items()}
    order = STATUS_ORDER + sorted(set(counted) - set(STATUS_ORDER))
    newest = (Merchant.last_activity_at.desc(), Merchant.id.desc())
    recent_ids = select(Merchant.id).order_by(*newest).limit(RECENT_SHOWN).subquery()
    oldest_ids = (select(Merchant.id).where(stale)
                  .order_by(Merchant.last_activity_at, Merchant.id).limit(STALE_SHOWN).subquery())
    stale_count = select(func.count()).select_from(
        select(Merchant.id).where(stale).limit(STALE_COUNT_CAP + 1).subquery())
    # both slices in one statement, each row with the (uncorrelated, computed once) count of
    # stalling merchants; any merchant at all makes the recent slice non-empty; the union
    # holds each slice whole, so sorting it splits them
    rows = db.session.execute(
        select(Merchant, stale_count.scalar_subquery()).where(Merchant.id.in_(
            union_all(select(recent_ids.c.id), select(oldest_ids.c.id))))).all()
    shown = [merchant for merchant, _ in rows]
    stale_total = rows[0][1] if rows else 0
    shown.sort(key=lambda m: (m.last_activity_at, m.id))
    recent = shown[::-1][:RECENT_SHOWN]
    oldest = [m for m in shown if not is_final(m.status) and m.last_activity_at < cutoff]
    oldest = oldest[:STALE_SHOWN]
    progress = _progress([*recent, *oldest], cutoff)
    return Dashboard([progress[m.id] for m in recent],
                     [(status, counted.get(status, 0)) for status in order], stale_after_days,
                     [progress[m.id] for m in oldest], min(stale_total, STALE_COUNT_CAP),
                     stale_total > STALE_COUNT_CAP)


def every_merchant_progress(stale_after_days: int) -> list[MerchantProgress]:
    """Every merchant's progress (the checklist export): two statements."""
    merchants = list(db.session.scalars(select(Merchant).order_by(Merchant.id)))
    progress = _progress(merchants, clock.utcnow() - timedelta(days=stale_after_days))
    return [progress[m.id] for m in merchants]


def _progress(merchants: list[Merchant], cutoff: datetime) -> dict[int, MerchantProgress]:
    """Each merchant's progress by id (stale if idle since before ``cutoff``), its drafts read
    in one statement."""
    ids = {m.id for m in merchants}
    drafts: dict[int, dict[str, StepDraft]] = defaultdict(dict)
    query = select(StepDraft).options(load_only(
        StepDraft.merchant_id, StepDraft.step, StepDraft.state, StepDraft.lock_reason))
    for draft in db.session.scalars(query.where(StepDraft.merchant_id.in_(ids))) if ids else ():
        drafts[draft.merchant_id][draft.step] = draft
    return {merchant.id: MerchantProgress(
        merchant,
        [entry.step.title for entry in stepper(merchant, drafts[merchant.id])
         if entry.state not in DONE_STATES],
        not is_final(merchant.status) and merchant.last_activity_at < cutoff,
    ) for merchant in merchants}


def checklist_csv(rows: list[MerchantProgress]) -> str:
    """The checklist export: one row per merchant; the gateway's codes for machines, then the
    same facts in words (the ``*_label(s)`` columns and ``checklist``) for people."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["merchant_id", "external_onboarding_id", "onboarding_id", "name", "status",
                     *CHECKLIST_ITEMS, "documents_to_be_uploaded", "incomplete_steps",
                     "last_activity_at", "status_label", "checklist",
                     "documents_to_be_uploaded_labels"])
    for row in rows:
        m = row.merchant
        writer.writerow([safe_cell(v) for v in (
            m.id, m.external_onboarding_id, m.onboarding_id or "", m.name, m.status or "",
            *(m.checklist.get(item, "") for item in CHECKLIST_ITEMS),
            " ".join(m.documents_outstanding), "; ".join(row.incomplete_steps),
            m.last_activity_at.isoformat(), label(m.status), _checklist_words(m),
            "; ".join(label(doc, Kind.DOCUMENT) for doc in m.documents_outstanding))])
    return out.getvalue()


def _checklist_words(merchant: Merchant) -> str:
    return "; ".join(f"{label(item, Kind.CHECKLIST_ITEM)}: "
                     f"{label(merchant.checklist[item], Kind.CHECKLIST_STATE)}"
                     for item in CHECKLIST_ITEMS if item in merchant.checklist)


@dataclass(frozen=True)
class AuditFilters:
    """The audit trail's filters; empty values do not filter."""

    actor: str = ""
    #: An action chosen from the list (exactly), or the start of one (``step.send``).
    action: str = ""
    #: Part of a merchant's name or external id, or its number.
    merchant: str = ""
    outcome: str = ""
    date_from: date | None = None
    date_to: date | None = None

    def conditions(self) -> list[ColumnElement[bool]]:
        """SQL conditions for the filters that are set (dates are whole UTC days)."""
        found: list[ColumnElement[bool]] = []
        if self.actor.strip():
            found.append(AuditEvent.actor_label.icontains(self.actor.strip(), autoescape=True))
        action = self.action.strip()
        if action in TABLES[Kind.AUDIT_ACTION]:
            found.append(AuditEvent.action == action)
        elif action:
            found.append(AuditEvent.action.startswith(action, autoescape=True))
        if self.merchant.strip():
            found.append(_merchant_matches(self.merchant.strip()))
        if self.outcome.strip():
            found.append(AuditEvent.outcome == self.outcome.strip())
        if self.date_from is not None:
            found.append(AuditEvent.at >= _day_start(self.date_from))
        if self.date_to is not None:
            found.append(AuditEvent.at < _day_start(self.date_to + timedelta(days=1)))
        return found


def _merchant_matches(typed: str) -> ColumnElement[bool]:
    """Events of the merchants whose name or external id contains ``typed``; a number is the
    merchant's own (as older links carry it)."""
    if typed.isdigit():
        return AuditEvent.merchant_id == (int(typed) if int(typed) <= MAX_ROW_ID else 0)
    named = select(Merchant.id).where(or_(
        *(column.icontains(typed, autoescape=True) for column in (
            Merchant.display_name, Merchant.legal_name, Merchant.external_onboarding_id))))
    return AuditEvent.merchant_id.in_(named)


AuditPage = Page[AuditEvent]


def audit_page(filters: AuditFilters, page: int = 1,
               per_page: int = AUDIT_PAGE_SIZE) -> AuditPage:
    """The events matching ``filters``, one page of them: two statements."""
    conditions = filters.conditions()
    total = db.session.scalar(select(func.count(AuditEvent.id)).where(*conditions)) or 0
    page = min(max(page, 1), max(1, math.ceil(total / per_page)))
    events = list(db.session.scalars(
        select(AuditEvent).where(*conditions).order_by(AuditEvent.at.desc(), AuditEvent.id.desc())
        .limit(per_page).offset((page - 1) * per_page)))
    return AuditPage(events, total, page, per_page)


@dataclass(frozen=True)
class EventMerchant:
    """The merchant an audit event concerns, by name; ``live``: it still exists (its page
    opens), else the name is the one its deletion recorded, or its number."""

    name: str
    live: bool


def event_merchants(events: list[AuditEvent]) -> dict[int, EventMerchant]:
    """The merchant of each event that concerns one, by event id: one statement."""
    merchant_ids = {e.merchant_id for e in events if e.merchant_id is not None}
    names = {m.id: m.name for m in db.session.scalars(
        select(Merchant).where(Merchant.id.in_(merchant_ids)).options(load_only(
            Merchant.legal_name, Merchant.display_name, Merchant.external_onboarding_id)))
    } if merchant_ids else {}
    return {e.id: _event_merchant(e, names) for e in events if e.merchant_id is not None}


def _event_merchant(event: AuditEvent, names: dict[int, str]) -> EventMerchant:
    assert event.merchant_id is not None
    if event.merchant_id in names:
        return EventMerchant(names[event.merchant_id], True)
    recorded = str((event.detail or {}).get("name") or "")
    return EventMerchant(recorded or f"merchant #{event.merchant_id}", False)


def event_sentences(events: list[AuditEvent],
                    merchants: dict[int, EventMerchant]) -> dict[int, str]:
    """Each event as a sentence naming its actor's role and its merchant (``merchants``, from
    :func:`event_merchants`): one statement."""
    user_ids = {e.actor_id for e in events if e.actor_id is not None}
    roles = {row.id: row.role for row in db.session.execute(
        select(User.id, User.role).where(User.id.in_(user_ids)))} if user_ids else {}
    return {e.id: audit_sentence(
        e.actor_label, roles.get(e.actor_id) if e.actor_id is not None else None, e.action,
        e.outcome, merchants[e.id].name if e.id in merchants else None, e.detail)
        for e in events}


def _day_start(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)
