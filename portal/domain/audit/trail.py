"""Reading the audit trail back: the audit page's filters, one page of entries (two
statements), and the merchant each entry concerns (one more)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.orm import load_only

from portal.core.db import MAX_ROW_ID, db
from portal.core.label_tables import TABLES, Kind
from portal.core.models.audit import AuditEvent
from portal.core.models.merchant import Merchant
from portal.core.pagination import Page, clamped

AUDIT_PAGE_SIZE = 50


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
    page = clamped(page, total, per_page)
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


def _day_start(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)
