"""The language of the pages a merchant's customer opens from a payment link: the one they
picked on the link's page (kept with the link), else the merchant's.

The first email goes before any pick, so in the merchant's language. A pick is kept with the
link, so a resent email, the page after paying and a new link for the same payment
(``renewal``) follow it.
"""

from __future__ import annotations

from sqlalchemy import select

from portal.core.db import db
from portal.core.languages import BY_CODE
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.core.models.payment_link import PaymentLink
from portal.domain.audit.service import Actor, record
from portal.domain.onboarding import merchant_language

ACTION = "payment_link.language"


def of_link(link: PaymentLink | None, merchant: Merchant) -> str:
    """The language of the pages ``link`` opens: the customer's pick, else the merchant's. A
    code no longer in the table counts as no pick."""
    picked = link.language if link is not None else None
    return picked if picked in BY_CODE else merchant_language.language_of(merchant)


def of_payment(payment: Payment, merchant: Merchant) -> str:
    """The language of the page the customer returns to after paying ``payment``: its link's
    pick, else the merchant's (a hold from the staff's form has no link)."""
    link = db.session.scalar(select(PaymentLink).where(PaymentLink.payment_id == payment.id))
    return of_link(link, merchant)


def picked(payment: Payment) -> str | None:
    """What the customer picked on the link of ``payment``, if they did: a new link for the
    same payment starts with it."""
    code = db.session.scalar(select(PaymentLink.language)
                             .where(PaymentLink.payment_id == payment.id))
    return code if code in BY_CODE else None


def pick(link: PaymentLink, payment: Payment, code: str, actor: Actor) -> bool:
    """The customer picked ``code`` on the page ``link`` opens: kept with the link, audited;
    False for a code not in the table, which changes nothing. Commits."""
    if code not in BY_CODE:
        return False
    link.language = code
    record(ACTION, actor=actor, merchant_id=payment.merchant_id,
           detail={"link": link.id, "merchantTxnId": payment.merchant_txn_id,
                   "language": code})
    db.session.commit()
    return True
