"""Approval per product (docs/gateway-contract.md, "Approval per product"), defined once for the
client and the sandbox.

The gateway accepts each product on its own, with one ``MERCHANT_<PRODUCT>_ACCEPTED`` webhook
per product (flat, with MERCHANT_STATUS_ACCEPTED's keys), and a pendency may hold up one
product's approval (``pendency_info_<product>_approval_blocking``). The events name two
products, where step 7 configures three: CARDS is the cards approval, which covers both card
products; MCA (the multi-currency account) covers the global fund transfer.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from portal.gateway.onboarding.events import PendencyKey, WebhookEventName
from portal.gateway.onboarding.vocabulary import Product


class ApprovalProduct(StrEnum):
    """A product as the approval events name it."""

    CARDS = "CARDS"
    MCA = "MCA"


@dataclass(frozen=True)
class ProductApproval:
    """One product approval: its event, the pendency flag that holds it up, and the step-7
    products it covers."""

    product: ApprovalProduct
    event: WebhookEventName
    blocking_key: PendencyKey
    covers: tuple[Product, ...]


#: Every product approval the gateway's events name.
APPROVALS = (
    ProductApproval(ApprovalProduct.CARDS, WebhookEventName.CARDS_ACCEPTED,
                    PendencyKey.CARDS_APPROVAL_BLOCKING,
                    (Product.INTERNATIONAL_CARDS_AND_ALT_PAYS, Product.DOMESTIC_CARDS_UPI_AND_INB)),
    ProductApproval(ApprovalProduct.MCA, WebhookEventName.MCA_ACCEPTED,
                    PendencyKey.MCA_APPROVAL_BLOCKING, (Product.GLOBAL_FUND_TRANSFER,)),
)
#: The approval an event reports, by the event's name.
BY_EVENT = {approval.event.value: approval for approval in APPROVALS}
#: The approval each step-7 product waits for.
COVERING = {product: approval for approval in APPROVALS for product in approval.covers}
#: The events whose ``merchant_id`` names the merchant at the gateway.
NAMING_THE_MERCHANT = frozenset({WebhookEventName.STATUS_ACCEPTED.value, *BY_EVENT,
                                 WebhookEventName.VIRTUAL_ACCOUNT_PROVISIONED.value})
