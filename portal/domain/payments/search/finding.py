"""Finding payments: by order reference, gateway reference or customer email, merchant, amount,
creation dates and status, a page at a time, in a fixed number of statements however many
payments there are (three, and none for refunds on an empty page).

What is typed in the one search box is compared whole: an order reference (merchantTxnId) or
the gateway's reference (gid), both unique; an address with an @ is the customer's email,
case folded (``payments.customer_email``, kept from the stored body, which is plain JSON). Any
other text also finds the guests whose first and last name hold it, case folded
(``payments.customer_name``): "asha", "Rao" or "Asha Rao".
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import ColumnElement, Select, func, or_, select

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.merchant_search import contains_pattern, names_contain
from portal.core.models.payment import Payment, PaymentRefund, searched_email
from portal.core.models.payment_link import PaymentLink
from portal.core.pagination import Page, clamped

PAGE_SIZE = 50
#: The most matches counted and paged through (the 20 pages of the newest): a count and an
#: offset that stay bounded however many payments there are; search or filter for the others.
COUNT_CAP = 1000
#: Payments read per statement by an export.
EXPORT_BATCH = 500


@dataclass(frozen=True)
class PaymentFilters:
    """What the payments list is narrowed to; empty values do not narrow it."""

    #: One merchant's list (its own page), by id.
    merchant_id: int | None = None
    #: An order reference, gateway reference or customer email, whole; or part of a guest's name.
    text: str = ""
    #: Part of a merchant's name or id.
    merchant: str = ""
    #: An amount in ten-thousandths (``portal.core.models.payment.units_of``).
    amount_units: int | None = None
    #: Created on or after the first day and on or before the last (whole UTC days).
    date_from: date | None = None
    date_to: date | None = None
    status: str = ""
    #: A condition of its own, such as holds close to expiry.
    only: ColumnElement[bool] | None = None

    def conditions(self) -> list[ColumnElement[bool]]:
        """SQL conditions for the filters that are set."""
        found: list[ColumnElement[bool]] = [] if self.only is None else [self.only]
        if self.merchant_id is not None:
            found.append(Payment.merchant_id == self.merchant_id)
        text = self.text.strip()
        if "@" in text:
            found.append(Payment.customer_email == searched_email(text))
        elif text:
            found.append(or_(Payment.merchant_txn_id == text, Payment.gid == text,
                             Payment.customer_name.ilike(contains_pattern(" ".join(text.split())),
                                                         escape="\\")))
        if self.merchant.strip():
            found.append(Payment.merchant_id.in_(
                select(Merchant.id).where(names_contain(self.merchant.strip()))))
        if self.amount_units is not None:
            found.append(Payment.amount_units == self.amount_units)
        if self.date_from is not None:
            found.append(Payment.created_at >= day_start(self.date_from))
        if self.date_to is not None:
            found.append(Payment.created_at < day_start(self.date_to + timedelta(days=1)))
        if self.status:
            found.append(Payment.status == self.status)
        return found


def day_start(day: date) -> datetime:
    """Midnight UTC at the start of ``day``."""
    return datetime.combine(day, time.min, tzinfo=UTC)


@dataclass(frozen=True)
class FoundPayment:
    """One list row: the payment, its merchant's name, its refunds (for its words) and its
    payment link, if the customer was sent one."""

    payment: Payment
    merchant_name: str
    refunds: list[PaymentRefund] = field(default_factory=list)
    link: PaymentLink | None = None


PaymentPage = Page[FoundPayment]


def _newest_first(conditions: list[ColumnElement[bool]]) -> Select[tuple[Payment, str, str, str,
                                                                        PaymentLink | None]]:
    """The matching payments with their merchant's names and their link, newest first."""
    return (select(Payment, Merchant.display_name, Merchant.legal_name,
                   Merchant.external_onboarding_id, PaymentLink)
            .join(Merchant, Merchant.id == Payment.merchant_id)
            .outerjoin(PaymentLink, PaymentLink.payment_id == Payment.id)
            .where(*conditions)
            .order_by(Payment.created_at.desc(), Payment.id.desc()))


def _count(conditions: list[ColumnElement[bool]]) -> int:
    """How many payments match, counting no further than one past ``COUNT_CAP``."""
    matches = select(Payment.id).where(*conditions).limit(COUNT_CAP + 1).subquery()
    return db.session.scalar(select(func.count()).select_from(matches)) or 0


def _with_refunds(rows: list) -> list[FoundPayment]:
    """The rows as list entries, each payment's refunds read in one statement for them all."""
    refunds: dict[int, list[PaymentRefund]] = {}
    if rows:
        for refund in db.session.scalars(
                select(PaymentRefund)
                .where(PaymentRefund.payment_id.in_([row[0].id for row in rows]))
                .order_by(PaymentRefund.id)):
            refunds.setdefault(refund.payment_id, []).append(refund)
    return [FoundPayment(payment, display or legal or external, refunds.get(payment.id, []), link)
            for payment, display, legal, external, link in rows]


def find_payments(filters: PaymentFilters, page: int = 1,
                  per_page: int = PAGE_SIZE) -> PaymentPage:
    """One page of the payments matching ``filters``, newest first; beyond ``COUNT_CAP``
    matches the page says there are more and pages through those first ones."""
    conditions = filters.conditions()
    total = _count(conditions)
    capped = total > COUNT_CAP
    total = min(total, COUNT_CAP)
    page = clamped(page, total, per_page)
    rows = db.session.execute(
        _newest_first(conditions)
        .limit(max(0, min(per_page, total - (page - 1) * per_page)))
        .offset((page - 1) * per_page)).all()
    return PaymentPage(_with_refunds(list(rows)), total, page, per_page, capped)


def every_payment(filters: PaymentFilters,
                  batch: int = EXPORT_BATCH) -> Iterator[FoundPayment]:
    """Every payment matching ``filters``, newest first, read ``batch`` at a time (each batch
    after the last one's place, so a payment added meanwhile neither repeats nor shifts one)."""
    conditions = filters.conditions()
    after: tuple[datetime, int] | None = None
    while True:
        query = _newest_first(conditions)
        if after is not None:
            query = query.where(or_(Payment.created_at < after[0],
                                    (Payment.created_at == after[0]) & (Payment.id < after[1])))
        rows = list(db.session.execute(query.limit(batch)).all())
        yield from _with_refunds(rows)
        if len(rows) < batch:
            return
        after = (rows[-1][0].created_at, rows[-1][0].id)
