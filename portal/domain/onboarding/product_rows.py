"""The products a merchant asked for and where each stands with the gateway, in words for the
status page and the merchant's summary (``portal.domain.onboarding.product_approvals`` decides)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from portal.core.labels import Kind, label
from portal.core.models.merchant import Merchant
from portal.domain.onboarding.pendencies import in_words
from portal.domain.onboarding.product_approvals import product_states, products_asked


@dataclass(frozen=True)
class ProductRow:
    """One product as the pages show it."""

    product: str
    name: str
    standing: str
    words: str
    accepted_at: datetime | None
    waits_for: str
    #: What each open pendency holding it up is, in words.
    held_up_by: list[str]


def product_rows(merchant: Merchant) -> list[ProductRow] | None:
    """The merchant's products in words, step 7's order; None when the portal does not know
    which products it asked for."""
    asked = products_asked(merchant)
    if asked is None:
        return None
    return [ProductRow(state.product.value, label(state.product, Kind.PRODUCT),
                       state.standing.value, state.words, state.accepted_at,
                       state.approval_words, [in_words(row).what for row in state.held_up_by])
            for state in product_states(merchant, asked)]
