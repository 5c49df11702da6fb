"""Step 8: the verification page's progress, and confirming its outcome.

The iframe's messages are only hints: the outcome is always read server-side (:func:`confirm`).
Minting the gateway's link is ``portal.domain.onboarding.verification_link``.
"""

from __future__ import annotations

from dataclasses import dataclass

from portal.core.db import db
from portal.core.labels import Kind, label
from portal.core.models.merchant import Merchant
from portal.core.models.status_change import StatusSource
from portal.domain.audit.service import Actor
from portal.domain.onboarding.locks import verification_complete
from portal.domain.onboarding.status_reads import read_status
from portal.features.verification.words import PageWords
from portal.gateway.onboarding.checklist_words import VERIFICATION_PAGE_ITEMS, word
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.onboarding.events import StepName

#: The verification page's steps: the postMessage step name, its checklist key, its label.
VERIFICATION_STEPS = tuple(
    (name, key, label(key, Kind.CHECKLIST_ITEM)) for name, key in zip(
        (StepName.TNC, StepName.DIGILOCKER, StepName.VKYC), VERIFICATION_PAGE_ITEMS, strict=True))


@dataclass(frozen=True)
class Progress:
    """One verification step as the gateway's checklist says it stands."""

    step: str
    label: str
    done: bool
    #: Done, and the gateway's checklist says it still reviews it (PENDING_REVIEW).
    under_review: bool = False


def progress(merchant: Merchant) -> list[Progress]:
    """The verification steps' states from the stored checklist (all done once verified)."""
    verified = verification_complete(merchant)
    entries = []
    for step, key, title in VERIFICATION_STEPS:
        said = word(merchant.checklist.get(key))
        done = verified or (said is not None and said.done)
        entries.append(Progress(str(step), title, done, said is not None and said.awaiting_review))
    return entries


def confirm(client: OnboardingClient, merchant: Merchant, words: PageWords,
            actor: Actor) -> dict[str, object]:
    """The verification page said it is complete: read the status server-side (as ``actor``)
    and answer in the page's ``words``; commits."""
    result = read_status(client, merchant, StatusSource.VERIFICATION_PAGE, actor)
    db.session.commit()
    steps = {p.step: p.done for p in progress(merchant)}
    if not result.ok:
        return {"confirmed": False, "status": merchant.status or "", "steps": steps,
                "message": words.unconfirmed, "next": ""}
    message, next_step = words.outcome(merchant.status or "")
    return {"confirmed": True, "status": merchant.status or "", "steps": steps,
            "message": message, "next": next_step}
