"""Why a merchant needs its owner now, in words, with the page where to act: one item per
reason, ordered by urgency (what is lost soonest first, then what the gateway waits for, then
what only ops wait for)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from enum import IntEnum
from typing import Any

from portal.core.config import Settings
from portal.core.label_tables import Kind
from portal.core.labels import label
from portal.core.models.merchant import Merchant
from portal.domain.onboarding.steps import BY_KEY
from portal.domain.payments.expiry import lifetime
from portal.domain.worklist.facts import LINK_ENDING, LINK_UNOPENED, Facts
from portal.gateway.onboarding.vocabulary import OnboardingStatus
from portal.gateway.payments.words import PaymentStatus


class Reason(IntEnum):
    """What is to do; the value is its urgency (lower first)."""

    HOLD_EXPIRING = 0
    HOLD_TO_LOOK_AT = 1
    LINK_ENDING = 2
    MORE_INFORMATION = 3
    STEP_REFUSED = 4
    APPROVALS = 5
    PAYMENTS_SETUP = 6
    QUEUED_FOR_LONG = 7
    REJECTED_UNTOLD = 8
    DOCUMENTS = 9
    LINK_UNOPENED = 10
    DORMANT = 11


@dataclass(frozen=True)
class Item:
    """One thing to do: about a merchant (None: the admin's approvals), why, and where."""

    reason: Reason
    merchant: Merchant | None
    words: str
    link_text: str
    endpoint: str
    values: dict[str, Any] = field(default_factory=dict)
    #: When it is too late (soonest first), and since when it waits (oldest first).
    due: datetime | None = None
    since: datetime | None = None

    @property
    def urgency(self) -> tuple[int, str, str, str]:
        """The sort key: reason, then deadline, then age, then the merchant's name."""
        return (self.reason, self.due.isoformat() if self.due else "~",
                self.since.isoformat() if self.since else "~",
                self.merchant.name.lower() if self.merchant else "")


def overdue(item: Item, now: datetime) -> bool:
    """Whether ``item``'s due date has passed."""
    return item.due is not None and item.due <= now


def pressing(item: Item, now: datetime) -> tuple[bool, tuple[int, str, str, str]]:
    """The order items are shown in: overdue first, then by urgency."""
    return (not overdue(item, now), item.urgency)


def hours(delta_seconds: float) -> str:
    """A duration in whole hours, as words: '1 hour', '5 hours'."""
    count = max(1, math.ceil(delta_seconds / 3600))
    return f"{count} hour{'s' if count != 1 else ''}"


def at(moment: datetime) -> str:
    """A moment as the pages write it."""
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def documents(keys: list[str]) -> str:
    """Outstanding documents in words."""
    return ", ".join(label(key, Kind.DOCUMENT) for key in keys)


@dataclass(frozen=True)
class Steps:
    """Which steps were refused, and which wait in the queue for long (by key): read for the
    page's words only (the navigation's count needs none)."""

    refused: list[str] = field(default_factory=list)
    queued: list[str] = field(default_factory=list)


def titles(keys: list[str]) -> str:
    """Steps by their titles: 'Bank details and Products'."""
    names = [BY_KEY[key].title for key in keys if key in BY_KEY]
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def step_page(merchant: Merchant, key: str) -> tuple[str, dict[str, Any]]:
    """The page of a step sent to the gateway (the documents step has its own)."""
    if key == "documents":
        return "documents.step", {"merchant_id": merchant.id}
    return "wizard.step", {"merchant_id": merchant.id, "step_key": key}


def items_of(merchant: Merchant, facts: Facts, settings: Settings, now: datetime,
             steps: Steps | None = None) -> list[Item]:
    """Everything to do about ``merchant`` now (``steps`` names the steps in the words)."""
    steps = steps or Steps()
    found = [*_holds(merchant, facts, settings, now), *_looked_at(merchant, facts),
             *_link(merchant, facts, now)]
    mid = {"merchant_id": merchant.id}
    asked = facts.documents
    if merchant.status == OnboardingStatus.RFI:
        words = ("The gateway asks for more information: " + documents(asked) + "."
                 if asked else "The gateway asks for more information; its status page says "
                 "what it asks for.")
        found.append(Item(Reason.MORE_INFORMATION, merchant, words,
                          "Upload them" if asked else "See what it asks",
                          "documents.step" if asked else "status.page", mid,
                          since=merchant.last_activity_at))
    if facts.refused:
        which = titles(steps.refused) or "A step"
        found.append(Item(Reason.STEP_REFUSED, merchant,
                          f"The gateway refused {which}: correct it and send it again.",
                          "Correct it", *_first_step(merchant, steps.refused),
                          since=merchant.last_activity_at))
    if facts.queued_since is not None:
        which = titles(steps.queued) or "A step"
        found.append(Item(Reason.QUEUED_FOR_LONG, merchant,
                          f"{which} has waited to be sent since {at(facts.queued_since)}: the "
                          "gateway has not taken it yet. Check that it is up, or send it again.",
                          "Open the step", *_first_step(merchant, steps.queued),
                          since=facts.queued_since))
    if merchant.status == OnboardingStatus.REJECTED and merchant.rejection_told_at is None:
        found.append(Item(Reason.REJECTED_UNTOLD, merchant,
                          "The gateway rejected this merchant: tell them why, then mark them "
                          "told.", "Why it was rejected", "status.page", mid,
                          since=merchant.last_activity_at))
    if facts.documents and merchant.status != OnboardingStatus.RFI:
        found.append(Item(Reason.DOCUMENTS, merchant,
                          f"Documents outstanding: {documents(facts.documents)}.",
                          "Upload them", "documents.step", mid, since=merchant.last_activity_at))
    if facts.dormant_since is not None:
        found.append(Item(Reason.DORMANT, merchant,
                          f"No payment since {at(facts.dormant_since)}: ask the merchant whether "
                          "it still takes payments, or pause or deactivate it.",
                          "Its payments", "payments.index", mid, since=facts.dormant_since))
    return found


def _first_step(merchant: Merchant, keys: list[str]) -> tuple[str, dict[str, Any]]:
    if keys:
        return step_page(merchant, keys[0])
    return "merchants.detail", {"merchant_id": merchant.id}


def _holds(merchant: Merchant, facts: Facts, settings: Settings, now: datetime) -> list[Item]:
    if not facts.holds or facts.first_hold is None:
        return []
    ends = facts.first_hold + lifetime(settings)
    many = facts.holds > 1
    when = (f"{'the first ' if many else ''}expired at {at(ends)}" if ends <= now
            else f"{'the first ' if many else ''}expires in {hours((ends - now).total_seconds())}"
            f" ({at(ends)})")
    count = f"{facts.holds} authorised holds" if many else "An authorised hold"
    return [Item(Reason.HOLD_EXPIRING, merchant,
                 f"{count} not captured: {when}. Capture or release before the issuer lets the "
                 "money go.", "Its holds", "payments.index",
                 {"merchant_id": merchant.id, "status": "expiring"}, due=ends)]


def _looked_at(merchant: Merchant, facts: Facts) -> list[Item]:
    """Holds authorised after a decline for now, or only in part: a person decides."""
    if not facts.looked_at or facts.first_looked_at is None:
        return []
    many = facts.looked_at > 1
    words = (f"{facts.looked_at} holds need a person: authorised after the gateway first "
             "declined them for now, or approved only in part. Capture or release each."
             if many else
             "A hold needs a person: it was authorised after the gateway first declined it "
             "for now, or approved only in part. Capture it or release it.")
    place = (("Its holds", "payments.index", {"merchant_id": merchant.id,
                                              "status": PaymentStatus.AUTHORIZED})
             if many else ("Open the hold", "payments.detail",
                           {"payment_id": facts.first_looked_at}))
    return [Item(Reason.HOLD_TO_LOOK_AT, merchant, words, *place,
                 since=facts.looked_at_since)]


def _link(merchant: Merchant, facts: Facts, now: datetime) -> list[Item]:
    if not facts.verifying or facts.link_ends is None or facts.link_made is None:
        return []
    place = ("Verification", "verification.page", {"merchant_id": merchant.id})
    sent = at(facts.link_made)
    if facts.link_ends <= now:
        return [Item(Reason.LINK_ENDING, merchant,
                     f"The verification link sent {sent} expired before the merchant finished: "
                     "send a new one.", *place, due=facts.link_ends)]
    if facts.link_ends <= now + LINK_ENDING:
        return [Item(Reason.LINK_ENDING, merchant,
                     f"The verification link sent {sent} expires in "
                     f"{hours((facts.link_ends - now).total_seconds())} and the merchant has not "
                     "finished: remind them, or send a new link.", *place, due=facts.link_ends)]
    if facts.link_opened is None and facts.link_made <= now - LINK_UNOPENED:
        return [Item(Reason.LINK_UNOPENED, merchant,
                     f"The merchant has not opened the verification link sent {sent}: remind "
                     "them.", *place, since=facts.link_made)]
    return []
