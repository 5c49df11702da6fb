"""Approval per product (docs/gateway-contract.md, "Approval per product"): where each product
the merchant asked for (its step-7 products) stands with the gateway.

- A product is accepted by a verified MERCHANT_<PRODUCT>_ACCEPTED event (one row per merchant
  and product, :func:`keep_acceptance`), never for an onboarding a status read shows REJECTED.
- Until any per-product event has arrived, a merchant a status read has APPROVED counts as
  approved for every product it asked for, "the gateway named no product"; once one has
  arrived, the per-product events alone decide.
- An open pendency flagged as blocking a product's approval holds that product up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from sqlalchemy import select

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.notice import Notice, NoticeKind
from portal.core.models.pendency import MerchantPendency
from portal.core.models.product_acceptance import MerchantProductAcceptance
from portal.core.models.webhook_event import WebhookEvent
from portal.domain.audit.service import Actor, record
from portal.domain.onboarding.drafts import find_draft
from portal.domain.onboarding.merchant_facts import (
    OPEN,
    current_pendencies,
    event_time,
    insert_for_dialect,
    payload_of,
)
from portal.domain.onboarding.steps import BY_KEY
from portal.domain.partner_events import merchant_events
from portal.gateway.onboarding.events import WebhookKey
from portal.gateway.onboarding.product_events import (
    APPROVALS,
    COVERING,
    ApprovalProduct,
    ProductApproval,
)
from portal.gateway.onboarding.vocabulary import OnboardingStatus, Product

ACCEPTED_ACTION = "merchant.product_accepted"
#: The pendency column that flags a hold-up of each approval (its blocking key, unprefixed:
#: ``pendency_info_cards_approval_blocking`` is ``cards_approval_blocking``).
BLOCKING_COLUMNS = {approval.product: approval.blocking_key.value.removeprefix("pendency_info_")
                    for approval in APPROVALS}
#: The step-7 products that are card products.
CARD_PRODUCTS = tuple(product for product, approval in COVERING.items()
                      if approval.product == ApprovalProduct.CARDS)


class Standing(StrEnum):
    """Where one product stands with the gateway."""

    ACCEPTED = "accepted"
    #: No per-product event yet, and a status read says APPROVED.
    NAMED_NO_PRODUCT = "named_no_product"
    WAITING = "waiting"
    REJECTED = "rejected"


#: Each standing in words.
STANDING_WORDS = {
    Standing.ACCEPTED: "Accepted by the gateway",
    Standing.NAMED_NO_PRODUCT: "Approved (the gateway named no product)",
    Standing.WAITING: "Waiting for the gateway's approval",
    Standing.REJECTED: "Not approved: the gateway rejected the onboarding",
}


#: Each approval as a sentence names it.
APPROVAL_WORDS = {ApprovalProduct.CARDS: "cards",
                  ApprovalProduct.MCA: "the multi-currency account (MCA)"}


@dataclass(frozen=True)
class ProductState:
    """One product the merchant asked for, where it stands, and what holds it up."""

    product: Product
    approval: ApprovalProduct
    standing: Standing
    accepted_at: datetime | None = None
    held_up_by: list[MerchantPendency] = field(default_factory=list)

    @property
    def words(self) -> str:
        """The standing in words."""
        return STANDING_WORDS[self.standing]

    @property
    def approval_words(self) -> str:
        """The approval it waits for, in words: 'the cards approval'."""
        return f"the {APPROVAL_WORDS[self.approval].removeprefix('the ')} approval"


def keep_acceptance(merchant: Merchant, event: WebhookEvent, approval: ProductApproval,
                    actor: Actor) -> bool:
    """Store that the gateway accepted ``merchant`` for ``approval``'s product, once per
    merchant and product (a redelivery, or two events at once, store nothing more), unless a
    status read has the onboarding REJECTED; audited, its owner told; True if stored; no
    commit. Partners' software is told (merchant.product_accepted)."""
    if merchant.status == OnboardingStatus.REJECTED:
        return False
    values = {"merchant_id": merchant.id, "product": approval.product.value,
              "webhook_event_id": event.id, "received_at": clock.utcnow(),
              "accepted_at": event_time(payload_of(event).get(WebhookKey.EVENT_TIMESTAMP))}
    stored = db.session.execute(
        insert_for_dialect()(MerchantProductAcceptance).values(values).on_conflict_do_nothing(
            index_elements=[MerchantProductAcceptance.merchant_id,
                            MerchantProductAcceptance.product])
        .returning(MerchantProductAcceptance.id),
        execution_options={"synchronize_session": False}).scalar()
    if stored is None:  # accepted before (a rowcount would not say so on PostgreSQL)
        return False
    record(ACCEPTED_ACTION, actor=actor, merchant_id=merchant.id,
           detail={"product": approval.product.value})
    db.session.add_all(Notice.for_owner_of(merchant, NoticeKind.PRODUCT,
                                           status=approval.product.value))
    merchant_events.product_accepted(merchant, approval.product.value, values["accepted_at"])
    return True


def products_asked(merchant: Merchant) -> list[Product] | None:
    """The step-7 products the merchant asked for, in step 7's order; None when the portal has
    no products step for it."""
    draft = find_draft(merchant, BY_KEY["products"])
    if draft is None:
        return None
    chosen = set((draft.payload or {}).get("products") or [])
    return [product for product in Product if product.value in chosen]


def acceptances(merchant: Merchant) -> dict[str, MerchantProductAcceptance]:
    """The merchant's product acceptances by the events' product name."""
    return {row.product: row for row in db.session.scalars(
        select(MerchantProductAcceptance)
        .where(MerchantProductAcceptance.merchant_id == merchant.id))}


def blocks(row: MerchantPendency, approval: ApprovalProduct) -> bool:
    """Whether the pendency ``row`` is open and holds up ``approval``."""
    return row.status == OPEN and bool(getattr(row, BLOCKING_COLUMNS[approval]))


def product_states(merchant: Merchant, asked: list[Product] | None = None) -> list[ProductState]:
    """Where each product the merchant asked for (``asked``, else its step-7 products) stands."""
    wanted = products_asked(merchant) if asked is None else asked
    accepted = acceptances(merchant)
    open_rows = [row for row in current_pendencies(merchant) if row.status == OPEN]
    states = []
    for product in wanted or []:
        approval = COVERING[product].product
        row = accepted.get(approval.value)
        states.append(ProductState(product, approval, _standing(merchant, row, accepted),
                                   row.accepted_at if row else None,
                                   [p for p in open_rows if blocks(p, approval)]))
    return states


def _standing(merchant: Merchant, row: MerchantProductAcceptance | None,
              accepted: dict[str, MerchantProductAcceptance]) -> Standing:
    if merchant.status == OnboardingStatus.REJECTED:
        return Standing.REJECTED
    if row is not None:
        return Standing.ACCEPTED
    if not accepted and merchant.status == OnboardingStatus.APPROVED:
        return Standing.NAMED_NO_PRODUCT
    return Standing.WAITING


@dataclass(frozen=True)
class CardApproval:
    """What the cards approval allows: card holds and payment links
    (``portal.features.payments``)."""

    #: The merchant asked for a card product (or the portal does not know its products).
    asked: bool
    standing: Standing
    #: The open pendencies that hold up its cards approval.
    held_up_by: list[MerchantPendency]
    #: The other products the gateway accepted it for (the events' names).
    accepted_for: list[ApprovalProduct]


def card_approval(merchant: Merchant) -> CardApproval:
    """Where the merchant's cards approval stands."""
    asked = products_asked(merchant)
    cards = [product for product in asked or CARD_PRODUCTS if product in CARD_PRODUCTS]
    [state] = product_states(merchant, cards[:1] or list(CARD_PRODUCTS[:1]))
    return CardApproval(asked is None or bool(cards), state.standing, state.held_up_by,
                        [ApprovalProduct(name) for name in acceptances(merchant)
                         if name != ApprovalProduct.CARDS])
