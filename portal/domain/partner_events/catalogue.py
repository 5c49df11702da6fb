"""The event types partners can subscribe to, and where a delivery stands, with their words."""

from __future__ import annotations

from enum import StrEnum

from portal.core.models.partner_webhook import DeliveryState


class EventType(StrEnum):
    """A kind of event, named as partners see it (``<subject>.<what happened>``)."""

    MERCHANT_STATUS_CHANGED = "merchant.status_changed"
    MERCHANT_NEEDS_ACTION = "merchant.needs_action"
    MERCHANT_PRODUCT_ACCEPTED = "merchant.product_accepted"
    PAYMENT_AUTHORIZED = "payment.authorized"
    PAYMENT_CAPTURED = "payment.captured"
    PAYMENT_RELEASED = "payment.released"
    PAYMENT_REFUNDED = "payment.refunded"
    PAYMENT_LINK_PAID = "payment_link.paid"


#: Each type's words, as the admin pages show it.
EVENT_WORDS: dict[EventType, str] = {
    EventType.MERCHANT_STATUS_CHANGED: "A merchant's onboarding status changed",
    EventType.MERCHANT_NEEDS_ACTION: "The gateway needs something more from a merchant",
    EventType.MERCHANT_PRODUCT_ACCEPTED: "The gateway accepted a merchant for a product",
    EventType.PAYMENT_AUTHORIZED: "A payment was authorised (the amount is held)",
    EventType.PAYMENT_CAPTURED: "A held payment was captured",
    EventType.PAYMENT_RELEASED: "A held payment was released",
    EventType.PAYMENT_REFUNDED: "A payment was refunded (in part or in full)",
    EventType.PAYMENT_LINK_PAID: "A customer paid through a payment link",
}


def words_of(type_name: str) -> str:
    """An event type's words (an unknown one's name as it is)."""
    try:
        return EVENT_WORDS[EventType(type_name)]
    except ValueError:
        return type_name


#: A pending delivery not tried yet, in words.
FIRST_TRY_WORDS = "Waiting for its first try"
#: Where a delivery stands, in words.
DELIVERY_WORDS: dict[str, str] = {
    DeliveryState.PENDING: "Waiting for its next try",
    DeliveryState.SENDING: "Being sent",
    DeliveryState.DELIVERED: "Delivered",
    DeliveryState.FAILED: "Failed (no try left)",
}


def delivery_words(state: str, attempts: int) -> str:
    """Where a delivery stands, in words (a pending one not tried yet says so)."""
    if state == DeliveryState.PENDING and not attempts:
        return FIRST_TRY_WORDS
    return DELIVERY_WORDS.get(state, state)
