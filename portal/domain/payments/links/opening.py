"""Opening a payment link: the customer's "Continue" mints the gateway's hosted checkout for the
stored hold, once, and sends the customer there.

One conditional UPDATE claims the link (waiting -> opening, with its token's nonce, before its
expiry), so of two opens at once one mints the checkout and the other is told the link is being
opened. The hold is then sent as any hold is (``holds.start_hold``: stored before sent, its
initiate never retried after a lost answer). What a process killed mid-way leaves is judged by
the hold later (``settle``): once the gateway has the hold the link was used; once a status
read found that it never got there, the customer may open the link again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask_babel import lazy_gettext as _l
from sqlalchemy import update

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import ActionState, Payment
from portal.core.models.payment_link import LinkState, PaymentLink
from portal.domain.audit.service import Actor, record
from portal.domain.payments import credentials as creds
from portal.domain.payments.holds import start_hold
from portal.domain.payments.in_flight import STALE_SENDING
from portal.domain.payments.links.standing import Standing, standing
from portal.domain.payments.service import unavailable_reason
from portal.gateway.payments.client import PaymentsClient

#: Who the audit credits with opening a link.
OPEN_ACTOR = Actor("customer link")
ACTION = "payment_link.open"
#: What the customer reads when the checkout could not be minted, by how sure we are (in the
#: page's language).
TRY_AGAIN = _l("The payment page could not be opened just now. Nothing was charged. Please try "
               "again in a few minutes.")
UNSURE = _l("The payment page could not be opened just now, and we are checking with the "
            "payment gateway. Nothing was charged. Please try again in a few minutes.")


@dataclass(frozen=True)
class Opened:
    """How an open went: the checkout to send the customer to, or where the link stands now
    and what to tell the customer."""

    redirect_url: str | None
    standing: Standing
    message: str = ""
    #: False when the merchant cannot take payments now: the customer sees the neutral page.
    available: bool = True


def refusal(payment: Payment, merchant: Merchant) -> str | None:
    """Why the link's hold may not go to the gateway now (in words for ops), or None: the
    merchant cannot take payments (paused, deactivated, not approved for cards). A hold the
    gateway has already is past this: its customer sees where it stands."""
    return None if payment.gid is not None else unavailable_reason(merchant)


def _move(link: PaymentLink, *conditions, **values) -> bool:
    """One conditional UPDATE of the link; True when it moved. Commits."""
    db.session.commit()  # the UPDATE starts its own transaction: no stale read to upgrade
    moved = db.session.execute(
        update(PaymentLink).where(PaymentLink.id == link.id, *conditions).values(**values)
        .execution_options(synchronize_session=False))
    db.session.commit()
    db.session.refresh(link)
    return moved.rowcount == 1


def settle(link: PaymentLink, payment: Payment, now: datetime) -> None:
    """Judge an open left unfinished (its process died, or the gateway's answer was lost) by its
    hold: opened once the gateway has the hold; open again once the hold is idle and was never
    sent there, and the open is older than a call in flight can be."""
    if link.state != LinkState.OPENING:
        return
    if payment.gid is not None:
        _move(link, PaymentLink.state == LinkState.OPENING, state=LinkState.OPENED)
    elif (payment.action_state == ActionState.IDLE and link.opened_at is not None
          and now - link.opened_at > STALE_SENDING):
        _move(link, PaymentLink.state == LinkState.OPENING, state=LinkState.WAITING)


def open_link(settings: Settings, link: PaymentLink, now: datetime) -> Opened:
    """Claim ``link`` (checked live) and mint its hold's checkout; commits."""
    payment = db.session.get(Payment, link.payment_id, populate_existing=True)
    assert payment is not None  # the link goes with its hold
    settle(link, payment, now)
    merchant = db.session.get(Merchant, payment.merchant_id)
    assert merchant is not None  # a payment goes with its merchant
    refused = refusal(payment, merchant)
    if refused:
        record(ACTION, outcome="refused", merchant_id=merchant.id, actor=OPEN_ACTOR,
               detail={"link": link.id, "merchantTxnId": payment.merchant_txn_id,
                       "error": refused})
        link.failure = refused[:300]  # the hold's page tells ops why the customer was turned away
        db.session.commit()
        return Opened(None, standing(link, payment, now), available=False)
    claimed = _move(link, PaymentLink.nonce == link.nonce,
                    PaymentLink.state == LinkState.WAITING, PaymentLink.expires_at > now,
                    state=LinkState.OPENING, opened_at=now, failure="")
    if not claimed:
        return Opened(None, standing(link, payment, now))
    if payment.gid is not None:  # sent meanwhile from the staff's own hold form
        return _ended(link, payment, now, LinkState.OPENED, "refused", "",
                      "The hold was sent from the portal's hold form, so the link did not "
                      "start it again.")
    if payment.action_state != ActionState.IDLE:  # never a second initiate after a lost answer
        return _ended(link, payment, now, LinkState.WAITING, "refused", TRY_AGAIN,
                      "A call for this hold was in flight or lost its answer, so the link did "
                      "not send it; its status is read first.")
    client = _client(settings, merchant)
    if isinstance(client, str):
        return _ended(link, payment, now, LinkState.WAITING, "refused", TRY_AGAIN, client)
    result = start_hold(client, merchant, payment.request_payload, None, actor=OPEN_ACTOR,
                        by_link=True)
    if result.ok and result.redirect_url:
        record(ACTION, merchant_id=merchant.id, gid=payment.gid or "", actor=OPEN_ACTOR,
               detail={"link": link.id, "merchantTxnId": payment.merchant_txn_id})
        _move(link, PaymentLink.state == LinkState.OPENING, state=LinkState.OPENED)
        return Opened(result.redirect_url, Standing.OPENED)
    if result.outcome_unknown:
        return _ended(link, payment, now, LinkState.OPENING, "unknown", UNSURE, result.message)
    return _ended(link, payment, now, LinkState.WAITING, "refused", TRY_AGAIN, result.message)


def _client(settings: Settings, merchant: Merchant) -> PaymentsClient | str:
    """The merchant's payments client, or why there is none (in words for the staff)."""
    current = creds.credentials_of(merchant)
    if current is None:
        return "The merchant has no payment credentials, so the checkout could not be made."
    try:
        return creds.client_for(settings, current)
    except creds.CredentialsError as exc:
        return str(exc)


def _ended(link: PaymentLink, payment: Payment, now: datetime, state: LinkState,
           outcome: str, customer_words: str, staff_words: str) -> Opened:
    """The open did not mint a checkout: the link goes to ``state`` and keeps why; audited."""
    record(ACTION, outcome=outcome, merchant_id=payment.merchant_id, actor=OPEN_ACTOR,
           detail={"link": link.id, "merchantTxnId": payment.merchant_txn_id,
                   "error": staff_words})
    _move(link, PaymentLink.state == LinkState.OPENING, state=state, failure=staff_words[:300])
    return Opened(None, standing(link, payment, now), customer_words)
