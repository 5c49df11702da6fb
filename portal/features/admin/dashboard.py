"""The dashboard's data, in a fixed number of SQL statements however many merchants there are;
the checklist export."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select, union_all
from sqlalchemy.orm import load_only

from portal.core import clock
from portal.core.db import db
from portal.core.label_tables import NOT_CREATED
from portal.core.labels import Kind, label
from portal.core.models.merchant import Merchant
from portal.core.models.step import DONE_STATES, StepDraft
from portal.core.spreadsheet_cells import export_cell
from portal.domain.onboarding.progress import stepper
from portal.domain.onboarding.stalling import stale_cutoff, stalling
from portal.domain.onboarding.status_counts import status_counts
from portal.domain.onboarding.status_history import is_final
from portal.gateway.onboarding.answers import Checklist
from portal.gateway.onboarding.vocabulary import OnboardingStatus

#: The chart's bars, in the order a record moves through them.
STATUS_ORDER = [NOT_CREATED, *(s.value for s in OnboardingStatus)]
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
        writer.writerow([export_cell(v) for v in (
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
