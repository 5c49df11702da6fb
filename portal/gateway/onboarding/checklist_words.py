"""The onboarding checklist's words: one row per word a source shows (docs/gateway-contract.md,
"Checklist words").

A row says whether the word means done, whether done and still under the gateway's review,
whether the item applies to the merchant at all, its label in words and its badge's colour.
Everything that reads the checklist asks this table: progress and the stepper, the locks, the
verification gate, the worklist, the dashboard and its export, the labels and badges of pages.
A word no source shows is kept as the gateway wrote it: shown as it is, never counted done.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class ChecklistState(StrEnum):
    """A checklist item's state, in the words of every source (openapi, response-structure)."""

    PENDING = "PENDING"
    #: response-structure's "to do".
    INCOMPLETE = "INCOMPLETE"
    COMPLETE = "COMPLETE"
    #: The openapi's "done" of the verification page's items.
    SUCCESS = "SUCCESS"
    #: response-structure: the section does not apply to this merchant (done).
    NOT_APPLICABLE = "NOT_APPLICABLE"
    #: Done by the merchant, awaiting the gateway's review (openapi ChecklistStatus).
    PENDING_REVIEW = "PENDING_REVIEW"
    FAILED = "FAILED"


class Badge(StrEnum):
    """The colour group of a badge (the stylesheet's ``badge--*``)."""

    SUCCESS = "success"
    WARNING = "warning"
    DANGER = "danger"
    NEUTRAL = "neutral"


@dataclass(frozen=True)
class ChecklistWord:
    """One word of the checklist and what it means to the portal."""

    state: ChecklistState
    done: bool
    awaiting_review: bool
    #: False only where the gateway says the item does not apply to the merchant.
    applies: bool
    label: str
    badge: Badge
    #: A synonym is kept as the contract's word for it (None: kept as itself).
    kept_as: ChecklistState | None = None


_S = ChecklistState
#: The table: every word a source shows, one row each.
WORDS: dict[str, ChecklistWord] = {row.state: row for row in (
    ChecklistWord(_S.COMPLETE, True, False, True, "Complete", Badge.SUCCESS),
    ChecklistWord(_S.SUCCESS, True, False, True, "Complete", Badge.SUCCESS, _S.COMPLETE),
    ChecklistWord(_S.NOT_APPLICABLE, True, False, False, "Not needed for this merchant",
                  Badge.NEUTRAL),
    ChecklistWord(_S.PENDING_REVIEW, True, True, True, "Done, under review by the gateway",
                  Badge.NEUTRAL),
    ChecklistWord(_S.PENDING, False, False, True, "To do", Badge.NEUTRAL),
    ChecklistWord(_S.INCOMPLETE, False, False, True, "To do", Badge.NEUTRAL, _S.PENDING),
    ChecklistWord(_S.FAILED, False, False, True, "Failed", Badge.DANGER),
)}
#: The words, as kept, that count as done (the worklist compares stored values with them).
DONE_WORDS = frozenset(state for state, row in WORDS.items() if row.done)
#: The items the merchant completes inside the verification page itself: the link to that
#: page is offered when every other item is done.
VERIFICATION_PAGE_ITEMS = ("tncAcknowledged", "digiLocker", "vkyc")


def checklist_state(value: Any) -> str:
    """A checklist value as the portal keeps it: a word of the table (a synonym as the
    contract's word: SUCCESS as COMPLETE, INCOMPLETE as PENDING), ``true`` as COMPLETE,
    ``false`` or nothing as PENDING; a word no source shows as the gateway wrote it."""
    if isinstance(value, bool):
        return _S.COMPLETE if value else _S.PENDING
    text = str(value).strip() if value is not None else ""
    row = WORDS.get(text.upper()) if text else WORDS[_S.PENDING]
    if row is None:
        return text
    return row.kept_as or row.state


def word(value: Any) -> ChecklistWord | None:
    """The table's row for a checklist value (as kept, or as the gateway wrote it); None for a
    word no source shows."""
    return WORDS.get(checklist_state(value))


def checklist_done(value: Any) -> bool:
    """Whether a checklist value says the item is done (a word no source shows: not done)."""
    row = word(value)
    return row is not None and row.done


def not_applicable(value: Any) -> bool:
    """Whether a checklist value says the item does not apply to the merchant."""
    row = word(value)
    return row is not None and not row.applies
