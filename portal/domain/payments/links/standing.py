"""Where a payment link stands, judged from its row and its hold together: the words the hold's
page, the payments list and the customer's page take, and which actions it still allows."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import select

from portal.core.db import db
from portal.core.models.payment import PENDING, Payment
from portal.core.models.payment_link import LinkState, PaymentLink
from portal.core.payment_statuses import AUTHORISED, POLLED


class Standing(StrEnum):
    """A link as people tell it apart."""

    #: Emailed; the customer has not opened it yet.
    WAITING = "waiting"
    #: Made, but its email was refused by the mail server (or never went).
    NOT_EMAILED = "not_emailed"
    #: Not opened before its time ran out.
    EXPIRED = "expired"
    #: Opened this moment: the gateway's checkout is being minted.
    OPENING = "opening"
    #: Opened; the customer is on the gateway's checkout or left it unfinished.
    OPENED = "opened"
    #: Opened and paid: the gateway authorised the amount.
    PAID = "paid"
    #: Opened, and the payment ended without an authorisation (declined, abandoned...).
    NOT_PAID = "not_paid"
    CANCELLED = "cancelled"


#: What the list and the hold's page call each.
LABELS = {
    Standing.WAITING: "Link emailed, not opened yet",
    Standing.NOT_EMAILED: "Link not emailed",
    Standing.EXPIRED: "Link expired unopened",
    Standing.OPENING: "Link being opened",
    Standing.OPENED: "Link opened, not paid yet",
    Standing.PAID: "Link opened and paid",
    Standing.NOT_PAID: "Link opened, payment not completed",
    Standing.CANCELLED: "Link cancelled",
}
#: Standings in which the link can still be sent again (a new link, a new lifetime) or cancelled.
UNOPENED = frozenset({Standing.WAITING, Standing.NOT_EMAILED, Standing.EXPIRED})
#: Link states in which the customer may still open the link, or is opening it: the link alone
#: sends its hold then, and nobody discards, changes or sends it from elsewhere.
LIVE = frozenset({LinkState.WAITING, LinkState.OPENING})


def live_link(payment: Payment) -> PaymentLink | None:
    """The hold's link while it is live (waiting or being opened), else None."""
    return db.session.scalar(select(PaymentLink).where(PaymentLink.payment_id == payment.id,
                                                       PaymentLink.state.in_(LIVE)))


def standing(link: PaymentLink, payment: Payment, now: datetime) -> Standing:
    """Where ``link`` stands at ``now``, given its hold ``payment``."""
    if link.state == LinkState.CANCELLED:
        return Standing.CANCELLED
    if link.state == LinkState.OPENING:
        return Standing.OPENING
    if link.state == LinkState.OPENED:
        if payment.status in AUTHORISED or payment.authorized_at is not None:
            return Standing.PAID
        return Standing.OPENED if payment.status in POLLED else Standing.NOT_PAID
    if link.expires_at <= now:
        return Standing.EXPIRED
    return Standing.WAITING if link.emailed_at is not None and link.email_failed_at is None \
        else Standing.NOT_EMAILED


#: What a hold not sent to the gateway yet is waiting for, when its customer has a link.
WAITING_FOR_THE_CUSTOMER = "Not sent yet: waits for the customer to open the payment link"
NOT_SENT = "Not sent: its payment link was cancelled"


def hold_words(link: PaymentLink | None, payment: Payment) -> str | None:
    """The status of a hold the gateway has not heard of yet, when a payment link sends it
    (its status's own label, "waiting for the gateway's answer", would mislead); else None."""
    if link is None or payment.gid is not None or payment.status != PENDING:
        return None
    return NOT_SENT if link.state == LinkState.CANCELLED else WAITING_FOR_THE_CUSTOMER


def label_of(link: PaymentLink, payment: Payment, now: datetime) -> str:
    """The link's standing in words."""
    return LABELS[standing(link, payment, now)]
