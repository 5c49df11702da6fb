"""The table of onboarding statuses: one row per status of the gateway's record, and what the
portal does with a merchant in it read from its row.

The forward-only moves (``portal.domain.onboarding.status_history``), the locks after
verification, the owner's notices, the labels and the badges derive from :data:`ROWS`; a word
other pages use is mapped onto these (``STATUS_ALIASES`` of the onboarding vocabulary).
``tests/core/test_onboarding_statuses.py`` fails on a status without a complete row.
"""

from __future__ import annotations

from dataclasses import dataclass

from portal.gateway.onboarding.checklist_words import Badge
from portal.gateway.onboarding.vocabulary import OnboardingStatus


@dataclass(frozen=True)
class StatusRow:
    """One onboarding status.

    ``rank``: its place on the forward path (a read may only move a merchant to a higher one).
    ``returns_to``: the statuses it may go back to (RFI, once the asked documents arrived).
    ``final``: nothing changes after it. ``verified``: the merchant finished the verification
    page (the gateway locks owners, bank details and documents). ``told``: its arrival is told
    to the merchant's owner.
    """

    code: str
    label: str
    badge: Badge
    rank: int
    returns_to: frozenset[str]
    final: bool
    verified: bool
    told: bool


def _row(code: str, label: str, badge: Badge, rank: int, *, final: bool = False,
         verified: bool = False, told: bool = False,
         returns_to: frozenset[str] = frozenset()) -> StatusRow:
    return StatusRow(code, label, badge, rank, returns_to, final, verified, told)


ROWS: dict[str, StatusRow] = {row.code: row for row in (
    _row(OnboardingStatus.INITIATED, "Created", Badge.NEUTRAL, 0),
    _row(OnboardingStatus.IN_PROGRESS, "Details being sent", Badge.NEUTRAL, 1),
    _row(OnboardingStatus.PENDING_VERIFICATION, "Pending verification", Badge.WARNING, 2),
    _row(OnboardingStatus.PENDING_REVIEW, "Pending review", Badge.NEUTRAL, 3, verified=True),
    _row(OnboardingStatus.RFI, "More information requested", Badge.WARNING, 4, verified=True,
         told=True, returns_to=frozenset({OnboardingStatus.PENDING_REVIEW})),
    _row(OnboardingStatus.APPROVED, "Approved", Badge.SUCCESS, 4, final=True, verified=True,
         told=True),
    _row(OnboardingStatus.REJECTED, "Rejected", Badge.DANGER, 4, final=True, verified=True,
         told=True),
)}


def codes_where(**columns: object) -> frozenset[str]:
    """The statuses whose rows have these column values, e.g. ``final=True``."""
    return frozenset(code for code, row in ROWS.items()
                     if all(getattr(row, name) == value for name, value in columns.items()))


#: Nothing changes after these.
FINAL_STATUSES = codes_where(final=True)
#: Reached only once the merchant finished the verification page.
VERIFIED_STATUSES = codes_where(verified=True)
#: Statuses whose arrival is told to the merchant's owner.
TOLD_STATUSES = codes_where(told=True)
#: The labels, for the ``label`` filter.
LABELS = {code: row.label for code, row in ROWS.items()}


#: What a merchant whose details are all with the gateway, which waits for its documents,
#: reads instead of "Details being sent" (a bulk row that ended waiting for documents).
WAITING_FOR_DOCUMENTS = "Waiting for documents"


def shown_words(status: str | None, documents_outstanding: list[str]) -> str | None:
    """The words a merchant's status is shown in when they are not its label: IN_PROGRESS with
    documents the gateway lists as outstanding waits for those documents; otherwise None (the
    status's label)."""
    if status == OnboardingStatus.IN_PROGRESS and documents_outstanding:
        return WAITING_FOR_DOCUMENTS
    return None
