"""A merchant's checklist of the requirements table: its profile (what its steps hold, else
what was chosen before step 1), and each needed row ticked once its evidence arrived."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from portal.core.db import db
from portal.core.models.document import DocumentStatus, StoredDocument
from portal.core.models.merchant import Merchant
from portal.core.models.step import StepDraft, StepState
from portal.core.onboarding_statuses import VERIFIED_STATUSES
from portal.domain.audit.service import Actor, record
from portal.domain.documents.service import documents_of
from portal.domain.onboarding.drafts import drafts_of
from portal.domain.requirements.table import (
    PENDENCIES,
    VERIFICATION,
    WEBSITE,
    Requirement,
    needed,
)

#: The keys of ``Merchant.requirement_choice``.
ENTITY_TYPE = "entityType"
SECTOR = "sector"
PRODUCTS = "products"


@dataclass(frozen=True)
class Profile:
    """What decides a merchant's requirements: entity type, regulated sector, products."""

    entity_type: str | None = None
    sector: str | None = None
    products: frozenset[str] = field(default_factory=frozenset)

    def needs(self) -> list[Requirement]:
        """The table's rows this profile needs."""
        return needed(self.entity_type, self.sector, self.products)


@dataclass(frozen=True)
class Evidence:
    """What the portal holds that ticks rows: documents' types, steps sent, verification."""

    documents: frozenset[str] = frozenset()
    sent_steps: frozenset[str] = frozenset()
    verified: bool = False
    #: What the last website check found: its pages' and facts' keys (privacy, prices...).
    website: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Item:
    """One row of a merchant's checklist and whether it is ticked."""

    row: Requirement
    done: bool


def profile_of(merchant: Merchant, drafts: dict[str, StepDraft]) -> Profile:
    """The merchant's profile: step 2's entity type and step 7's products once their drafts
    hold them, else what was chosen before step 1; the sector is only chosen."""
    choice = merchant.requirement_choice or {}
    business = drafts["business"].payload if "business" in drafts else {}
    chosen = drafts["products"].payload.get(PRODUCTS) if "products" in drafts else None
    return Profile(business.get(ENTITY_TYPE) or choice.get(ENTITY_TYPE) or None,
                   choice.get(SECTOR) or None,
                   frozenset(chosen or choice.get(PRODUCTS) or ()))


def evidence_of(merchant: Merchant, drafts: dict[str, StepDraft],
                documents: Iterable[StoredDocument]) -> Evidence:
    """What ticks the merchant's rows: documents stored and not refused, the steps sent,
    and whether the merchant finished the verification."""
    return Evidence(
        frozenset(d.doc_type for d in documents if d.status != DocumentStatus.REFUSED),
        frozenset(key for key, draft in drafts.items() if draft.state == StepState.SENT)
        | ({"create"} if merchant.onboarding_id else set()),
        merchant.status in VERIFIED_STATUSES,
        website_found(merchant.website_check or {}))


def is_done(row: Requirement, evidence: Evidence) -> bool:
    """Whether the evidence ticks ``row`` (a website row: the website check found it)."""
    if row.step == WEBSITE:
        return row.key.removeprefix(f"{WEBSITE}_") in evidence.website
    if row.documents:
        return any(_matches(kind, held) for kind in row.documents for held in evidence.documents)
    if row.step == VERIFICATION:
        return evidence.verified
    return row.step in evidence.sent_steps


def website_found(result: dict[str, object]) -> frozenset[str]:
    """The keys of what a website check's result found: its pages' and its facts'."""
    links = result.get("links") or {}
    facts = result.get("facts") or []
    return frozenset([*links, *facts]) if isinstance(links, dict) and isinstance(facts, list) \
        else frozenset()


def checklist(profile: Profile, evidence: Evidence) -> list[Item]:
    """Each row the profile needs, ticked or not."""
    return [Item(row, is_done(row, evidence)) for row in profile.needs()]


def _matches(kind: str, held: str) -> bool:
    return held.endswith(kind[1:]) if kind.startswith("*") else held == kind


def keep_choice(merchant: Merchant, choice: dict[str, object], *, actor: Actor) -> None:
    """Keep what was chosen to list the merchant's requirements, audited; commits. Nothing
    changes (and nothing is audited) when the choice is the one kept."""
    if choice == (merchant.requirement_choice or {}):
        return
    merchant.requirement_choice = choice
    record("merchant.requirements", actor=actor, merchant_id=merchant.id, detail=dict(choice))
    db.session.commit()


def merchant_checklist(merchant: Merchant, drafts: dict[str, StepDraft],
                       documents: Iterable[StoredDocument]) -> list[Item]:
    """The merchant's checklist: its profile's rows, ticked by what the portal holds."""
    return checklist(profile_of(merchant, drafts), evidence_of(merchant, drafts, documents))


def merchant_asks(merchant: Merchant) -> list[Requirement]:
    """The open rows the merchant provides themselves, as their link's page lists them: the
    documents to gather and the website's pages to add (the steps' facts are the partner's to
    send, and the video call is the page's own). The pendencies the gateway raises only in some
    cases (a cancelled cheque when the penny drop fails...) wait until it raises them."""
    return [item.row for item in merchant_checklist(merchant, drafts_of(merchant),
                                                   documents_of(merchant))
            if not item.done and item.row.source != PENDENCIES
            and (item.row.documents or item.row.step == WEBSITE)]
