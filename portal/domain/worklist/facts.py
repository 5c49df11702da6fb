"""What the worklist needs to know of each merchant, as SQL columns read in the merchant's own
row (correlated sub-selects on indexed columns), so one statement reads them for any number of
merchants: refused steps, a queued send failing for long, holds near their expiry or that a
person must look at (authorised late, or in part), the newest
verification link, and whether the gateway's checklist still waits for documents or video KYC.

Only merchants that may have something to do are read (:func:`may_need_action`): the others
cost nothing however many there are. The moments they are measured from are bound parameters
(:func:`moments`), so the expressions are built once per process and a statement made of them
is one SQLAlchemy compiles once and recognises without walking it again (the navigation reads
it on every page).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import ColumnElement, and_, bindparam, case, func, null, or_, select

from portal.core.config import Settings
from portal.core.models.merchant import Merchant
from portal.core.models.outbox import LIVE_STATES, OutboxItem
from portal.core.models.payment import Payment
from portal.core.models.step import StepDraft, StepState
from portal.core.models.verification import MerchantLink
from portal.domain.health.dormancy import dormant, dormant_cutoff, last_hold, went_live
from portal.domain.onboarding.steps import STEPS
from portal.domain.payments.expiry import authorised_by, warned_after
from portal.gateway.onboarding.checklist_words import DONE_WORDS
from portal.gateway.onboarding.vocabulary import OnboardingStatus
from portal.gateway.payments.words import PaymentStatus

#: A queued step send older than this is "failing for long".
QUEUED_FOR_LONG = timedelta(hours=1)
#: A verification link this close to its end (or past it) needs a new one.
LINK_ENDING = timedelta(hours=6)
#: A verification link not opened this long after it was made needs a reminder.
LINK_UNOPENED = timedelta(hours=4)
#: Statuses in which the merchant and ops still fill in and verify.
UNDER_WAY = (OnboardingStatus.IN_PROGRESS, OnboardingStatus.PENDING_VERIFICATION)
#: The steps the gateway refuses (a send's 400); the later ones follow the status.
SENT_STEPS = tuple(step.key for step in STEPS if step.request is not None)
_DONE = sorted(DONE_WORDS)
#: Sends queued before this are failing for long; holds authorised before this are near their
#: expiry (values from :func:`moments`).
QUEUED_BEFORE = bindparam("queued_before")
HELD_BEFORE = bindparam("held_before")
#: Live merchants without a hold since this moment are dormant.
DORMANT_BEFORE = bindparam("dormant_before")


def moments(settings: Settings, now: datetime) -> dict[str, datetime]:
    """The values of the bound moments at ``now``."""
    return {QUEUED_BEFORE.key: now - QUEUED_FOR_LONG, HELD_BEFORE.key: now - warned_after(settings),
            DORMANT_BEFORE.key: dormant_cutoff(settings.dormant_after_days, now)}


def _not_done(item: str) -> ColumnElement[bool]:
    value = Merchant.checklist[item].as_string()
    return or_(value.is_(None), value.not_in(_DONE))


@dataclass(frozen=True)
class Facts:
    """One merchant's facts, read by :func:`columns`."""

    refused: int
    queued_since: datetime | None
    holds: int
    first_hold: datetime | None
    link_made: datetime | None
    link_ends: datetime | None
    link_opened: datetime | None
    verifying: bool
    #: The documents the gateway lists as outstanding, read only while it asks for more
    #: information or its checklist still waits for documents (else empty).
    documents: list[str]
    #: Holds a person must look at: authorised after a decline for now, or only in part; the
    #: first one's id and since when it waits.
    looked_at: int = 0
    first_looked_at: int | None = None
    looked_at_since: datetime | None = None
    #: For a dormant merchant, its last hold (or its going live, if it never had one).
    dormant_since: datetime | None = None


@cache
def columns() -> dict[str, Any]:
    """The facts as labelled SQL expressions, evaluated in each merchant's row (the moments
    bound, see :func:`moments`)."""
    own = Merchant.id
    holds = and_(Payment.merchant_id == own, authorised_by(HELD_BEFORE))
    person = and_(Payment.merchant_id == own, needs_a_person())
    latest = (select().where(MerchantLink.merchant_id == own, MerchantLink.revoked_at.is_(None))
              .order_by(MerchantLink.created_at.desc(), MerchantLink.id.desc()).limit(1))
    return {
        "refused": select(func.count(StepDraft.id)).where(
            StepDraft.merchant_id == own, StepDraft.state == StepState.NEEDS_ATTENTION,
            StepDraft.step.in_(SENT_STEPS)).scalar_subquery(),
        "queued_since": select(func.min(OutboxItem.created_at)).where(
            OutboxItem.merchant_id == own, OutboxItem.state.in_(LIVE_STATES),
            OutboxItem.created_at <= QUEUED_BEFORE).scalar_subquery(),
        "holds": select(func.count(Payment.id)).where(holds).scalar_subquery(),
        "first_hold": select(func.min(Payment.authorized_at)).where(holds).scalar_subquery(),
        "looked_at": select(func.count(Payment.id)).where(person).scalar_subquery(),
        "first_looked_at": select(func.min(Payment.id)).where(person).scalar_subquery(),
        "looked_at_since": select(func.min(func.coalesce(
            Payment.late_authorised_at, Payment.authorized_at))).where(person).scalar_subquery(),
        "link_made": latest.add_columns(MerchantLink.created_at).scalar_subquery(),
        "link_ends": latest.add_columns(MerchantLink.expires_at).scalar_subquery(),
        "link_opened": latest.add_columns(MerchantLink.last_opened_at).scalar_subquery(),
        "verifying": and_(Merchant.status.in_(UNDER_WAY), _not_done("vkyc")),
        # decrypted only where it matters: the gateway asks for more, or still awaits documents
        "documents": case((or_(Merchant.status == OnboardingStatus.RFI,
                               and_(Merchant.status.in_(UNDER_WAY), _not_done("documents"))),
                           Merchant.documents_outstanding), else_=null()),
        "dormant_since": case((dormant(DORMANT_BEFORE), func.coalesce(last_hold(), went_live())),
                              else_=null()),
    }


def facts_of(row: Any) -> Facts:
    """The facts in a row selected with :func:`columns`."""
    return Facts(int(row.refused or 0), row.queued_since, int(row.holds or 0), row.first_hold,
                 row.link_made, row.link_ends, row.link_opened, bool(row.verifying),
                 list(row.documents or []), int(row.looked_at or 0), row.first_looked_at,
                 row.looked_at_since, row.dormant_since)


@cache
def may_need_action() -> ColumnElement[bool]:
    """Merchants that may have something to do: under way, asked for more, rejected and not
    yet told, dormant, or with a refused step, a send queued for long or a hold near its expiry
    (the moments bound, see :func:`moments`)."""
    return or_(
        Merchant.status.in_((*UNDER_WAY, OnboardingStatus.RFI)),
        and_(Merchant.status == OnboardingStatus.REJECTED, Merchant.rejection_told_at.is_(None)),
        select(StepDraft.id).where(StepDraft.merchant_id == Merchant.id,
                                   StepDraft.state == StepState.NEEDS_ATTENTION,
                                   StepDraft.step.in_(SENT_STEPS)).exists(),
        select(OutboxItem.id).where(OutboxItem.merchant_id == Merchant.id,
                                    OutboxItem.state.in_(LIVE_STATES),
                                    OutboxItem.created_at <= QUEUED_BEFORE).exists(),
        select(Payment.id).where(Payment.merchant_id == Merchant.id,
                                 authorised_by(HELD_BEFORE)).exists(),
        select(Payment.id).where(Payment.merchant_id == Merchant.id, needs_a_person()).exists(),
        dormant(DORMANT_BEFORE))


def needs_a_person() -> ColumnElement[bool]:
    """Authorised holds a person must look at before capturing: authorised after a decline for
    now (its owner captures or releases it), or approved only in part."""
    return and_(Payment.status == PaymentStatus.AUTHORIZED,
                or_(Payment.late_authorised_at.is_not(None), Payment.partial_approval.is_(True)))
