"""Each product a live merchant asked for, in health terms: from its standing with the gateway
(``portal.domain.onboarding.product_approvals``), the open pendencies that hold it up, and, for
a card product, whether the portal can take its holds and payment links (credentials)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select

from portal.core.db import db
from portal.core.labels import Kind, label
from portal.core.models.merchant import Merchant
from portal.core.models.status_change import StatusChange
from portal.domain.health.parties import HealthLine, Party
from portal.domain.onboarding.drafts import find_draft
from portal.domain.onboarding.pendencies import in_words
from portal.domain.onboarding.product_approvals import (
    CARD_PRODUCTS,
    ProductState,
    Standing,
    product_states,
)
from portal.domain.onboarding.steps import BY_KEY
from portal.domain.payments.credentials import credentials_of
from portal.gateway.onboarding.vocabulary import OnboardingStatus


def entered(merchant: Merchant, status: str) -> datetime | None:
    """When the merchant last moved to ``status``, or None."""
    return db.session.scalar(select(func.max(StatusChange.at)).where(
        StatusChange.merchant_id == merchant.id, StatusChange.to_status == status))


def _asked_at(merchant: Merchant) -> datetime:
    """When the products were asked for: the products step's send, else the merchant's start."""
    draft = find_draft(merchant, BY_KEY["products"])
    return (draft.sent_at if draft and draft.sent_at else None) or merchant.created_at


def product_line(merchant: Merchant, state: ProductState, has_credentials: bool) -> HealthLine:
    """One product's health line."""
    subject = label(state.product, Kind.PRODUCT)
    line = {"subject": subject, "product": state.product.value}
    if state.standing == Standing.REJECTED:
        return HealthLine(**line, ready=False, why="the gateway rejected the onboarding",
                          who=Party.US, since=entered(merchant, OnboardingStatus.REJECTED),
                          action="Read the gateway's reason on the status page and agree with "
                                 "the merchant whether to apply again.")
    if state.held_up_by:
        first = state.held_up_by[0]
        what = in_words(first)
        since = min(row.raised_at or row.reported_at or row.received_at
                     for row in state.held_up_by)
        asked = what.reason or what.what
        return HealthLine(**line, ready=False,
                          why=f"an open pendency holds up {state.approval_words}: {what.what}",
                          who=Party.MERCHANT, since=since,
                          action=f"Ask the merchant for what the gateway asks: {asked}")
    if state.standing == Standing.WAITING:
        return HealthLine(**line, ready=False,
                          why=f"the gateway has not given {state.approval_words} yet",
                          who=Party.GATEWAY, since=_asked_at(merchant),
                          action="Nothing to send: the portal reads the gateway's answer as it "
                                 "comes. If it is long overdue, ask the gateway's support.")
    since = state.accepted_at or entered(merchant, OnboardingStatus.APPROVED)
    if state.product in CARD_PRODUCTS and not has_credentials:
        return HealthLine(**line, ready=False, why="it has no payment credentials yet",
                          who=Party.US, since=since,
                          action="An admin sets up its payment credentials (Payment "
                                 "credentials, on its payments page).")
    return HealthLine(**line, ready=True, why="", since=since)


def product_lines(merchant: Merchant) -> list[HealthLine]:
    """Every product the merchant asked for, in step 7's order."""
    has_credentials = credentials_of(merchant) is not None
    return [product_line(merchant, state, has_credentials) for state in product_states(merchant)]
