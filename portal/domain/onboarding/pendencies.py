"""The pendencies the gateway reported on a merchant (MERCHANT_PENDENCY_STATUS_UPDATED), in
words for the status page: what is pending, where it stands, the gateway's reason, and which
approvals it holds up."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from portal.core.labels import Kind, label
from portal.core.models.merchant import Merchant
from portal.core.models.pendency import MerchantPendency
from portal.core.quoted_text import unlinked
from portal.domain.onboarding.merchant_facts import OPEN, current_pendencies

#: The pendency categories the sources show, in words; any other is shown humanised.
CATEGORIES = {"DOCUMENT": "Document", "COMPLIANCE": "Compliance review"}
#: Where a pendency stands (``pendency_info_status``), in words.
STATES = {
    "OPEN": "Open: the gateway is waiting for it",
    "RESOLVED": "Resolved",
    "CLOSED": "Closed",
    "REJECTED": "Rejected",
}


@dataclass(frozen=True)
class Pendency:
    """One pendency as the status page shows it."""

    what: str
    state: str
    status: str
    reason: str
    raised_at: datetime | None
    reported_at: datetime | None
    holds_up: str

    @property
    def open(self) -> bool:
        """Whether the gateway still waits for it."""
        return self.status == OPEN


def humanise(code: str) -> str:
    """A code the portal has no words for, readable: 'BANK_STATEMENT' -> 'Bank statement'."""
    return code.replace("_", " ").strip().capitalize()


def subject(code: str) -> str:
    """A sub-category in words: each document type it names by its label, else humanised."""
    parts = [part.strip() for part in code.split(",") if part.strip()]
    return ", ".join(named if (named := label(part, Kind.DOCUMENT)) != part else humanise(part)
                     for part in parts)


def holds_up(row: MerchantPendency) -> str:
    """Which approvals an open pendency holds up, as a sentence ('' when the gateway did not
    say, or the pendency is no longer open)."""
    if row.status != OPEN or (row.cards_approval_blocking is None
                              and row.mca_approval_blocking is None):
        return ""
    blocked = [name for name, flag in (("the cards approval", row.cards_approval_blocking),
                                       ("the MCA approval", row.mca_approval_blocking)) if flag]
    if not blocked:
        return "It holds up no approval."
    return f"It holds up {' and '.join(blocked)}."


def latest(shown: list[Pendency]) -> Pendency | None:
    """The pendency the gateway reported last (a rejection's reason, an RFI's request), or
    None when it reported none."""
    known = [p for p in shown if p.reported_at is not None] or shown
    return max(known, key=lambda p: p.reported_at or datetime.min.replace(tzinfo=UTC),
               default=None)


def in_words(row: MerchantPendency) -> Pendency:
    """One pendency as the gateway reported it, in words; what the gateway wrote has no working
    link left in it (``portal.core.quoted_text``), on a page or in an email."""
    category = CATEGORIES.get(row.category) or humanise(row.category) or "Pendency"
    what = f"{category}: {subject(row.sub_category)}" if row.sub_category else category
    state = STATES.get(row.status) or humanise(row.status) or "Not said"
    return Pendency(unlinked(what), unlinked(state), row.status, unlinked(row.reason),
                    row.raised_at, row.reported_at, holds_up(row))


def pendencies(merchant: Merchant) -> list[Pendency]:
    """The merchant's pendencies where they stand now, in words, oldest raised first."""
    return [in_words(row) for row in current_pendencies(merchant)]
