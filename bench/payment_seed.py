"""Seeding many payments fast, with bulk inserts (the payments list benchmark): spread over a
fixed set of merchants, one a minute from 1 January 2026, each with its own order reference,
amount and customer email, so a search for payment ``n`` finds it alone at any size. Held
payments were authorised in the last hours, but the first hundred of every thousand are close
to their expiry (so the filtered pages are full at 100 payments as at 100,000)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from flask import Flask
from sqlalchemy import insert

from bench.seed import BATCH, START
from portal.core import clock
from portal.core.db import db
from portal.core.models.payment import Payment, email_in, units_of
from portal.core.models.payment_link import PaymentLink

#: The statuses payments take, in turn: most held, some captured, declined or waiting.
STATUSES = ("AUTHORIZED", "SENT_FOR_CAPTURE", "AUTHORIZED", "AUTHORIZED", "ISSUER_DECLINE")
#: Every this many payments, one was sent to its customer as a payment link.
LINK_EVERY = 20


def reference(n: int) -> str:
    """Payment ``n``'s order reference (merchantTxnId)."""
    return f"PTSEED{n:08d}"


def email(n: int) -> str:
    """Payment ``n``'s customer's email."""
    return f"customer{n}@example.com"


def amount(n: int) -> str:
    """Payment ``n``'s amount: its own at any size."""
    return f"{1000 + n}.50"


#: Of every this many payments, the first EXPIRING held ones are close to their expiry.
EXPIRING_EVERY, EXPIRING = 1000, 100


def _authorised(n: int, status: str, now: datetime) -> datetime | None:
    if status not in ("AUTHORIZED", "SENT_FOR_CAPTURE"):
        return None
    return now - (timedelta(days=6, hours=12) if n % EXPIRING_EVERY < EXPIRING
                  else timedelta(minutes=n % 600))


def _payment(n: int, merchant_ids: list[int], now: datetime) -> dict[str, Any]:
    status = STATUSES[n % len(STATUSES)]
    created = START + timedelta(minutes=n)
    body = {"merchantTxnId": reference(n), "paymentData": {
        "totalAmount": amount(n), "txnCurrency": "INR",
        "billingData": {"firstName": "Asha", "emailId": email(n)}}}
    return {
        "merchant_id": merchant_ids[n % len(merchant_ids)], "merchant_txn_id": reference(n),
        "merchant_unique_id": f"PUSEED{n:010d}", "gid": f"gl_o-{n:012x}", "status": status,
        "gateway_status": status, "unchanged_polls": 0, "amount": amount(n),
        "amount_units": units_of(amount(n)), "currency": "INR",
        "captured_amount": amount(n) if status == "SENT_FOR_CAPTURE" else None,
        "request_payload": body, "customer_email": email_in(body), "reason_code": "",
        "message": "", "action_nonce": f"seed-nonce-{n}", "action_state": "idle",
        "authorized_at": _authorised(n, status, now),
        "created_at": created, "updated_at": created}


def seed_payments(app: Flask, count: int, merchant_ids: list[int]) -> None:
    """Insert ``count`` payments of ``merchant_ids``, every LINK_EVERY-th with an opened link."""
    now = clock.utcnow()
    with app.app_context(), db.engine(app).begin() as conn:
        for start in range(0, count, BATCH):
            numbers = range(start, min(start + BATCH, count))
            ids = conn.execute(insert(Payment).returning(Payment.id),
                               [_payment(n, merchant_ids, now) for n in numbers]).scalars().all()
            conn.execute(insert(PaymentLink), [
                {"payment_id": payment_id, "nonce": f"seed-link-{n}", "state": "opened",
                 "expires_at": START + timedelta(days=7), "created_at": START,
                 "emailed_at": START, "emails_sent": 1, "opened_at": START, "failure": ""}
                for n, payment_id in zip(numbers, ids, strict=True) if n % LINK_EVERY == 0])
