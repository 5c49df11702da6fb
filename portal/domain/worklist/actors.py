"""Who each worklist item waits for (us, the merchant, the gateway): one row per reason, and
the filter the worklist's page offers by it."""

from __future__ import annotations

from portal.domain.health.parties import Party
from portal.domain.worklist.reasons import Item, Reason

#: Who must act for each reason.
WAITS_FOR: dict[Reason, Party] = {
    Reason.HOLD_EXPIRING: Party.US,
    Reason.HOLD_TO_LOOK_AT: Party.US,
    Reason.LINK_ENDING: Party.MERCHANT,
    Reason.MORE_INFORMATION: Party.MERCHANT,
    Reason.STEP_REFUSED: Party.US,
    Reason.APPROVALS: Party.US,
    Reason.PAYMENTS_SETUP: Party.US,
    Reason.QUEUED_FOR_LONG: Party.GATEWAY,
    Reason.REJECTED_UNTOLD: Party.US,
    Reason.DOCUMENTS: Party.MERCHANT,
    Reason.LINK_UNOPENED: Party.MERCHANT,
    Reason.DORMANT: Party.MERCHANT,
}
#: The page's filter values: ``?who=us``.
FILTERS = {party.name.lower(): party for party in Party}


def waits_for(item: Item) -> Party:
    """Who must act on ``item``."""
    return WAITS_FOR[item.reason]


def only(items: list[Item], who: str) -> list[Item]:
    """The items that wait for the party the filter value ``who`` names (all when none)."""
    party = FILTERS.get(who)
    return items if party is None else [item for item in items if waits_for(item) == party]
