"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from portal.core.db import db
from portal.core.models.payment import Payment
from portal.domain.payments.service import new_nonce


def add_payment(app, merchant_id: int, reference: str, amount: str = "10.00",
                email: str | None = None, created: datetime | None = None,
                status: str = "AUTHORIZED", **columns: Any) -> int:
    """One payment of ``merchant_id`` as the portal stores a hold it sent; returns its id."""
    billing = {"emailId": email} if email else {}
    with app.app_context():
        payment = Payment(
            merchant_id=merchant_id, merchant_txn_id=reference,
            merchant_unique_id=f"PU{reference}-".ljust(20, "0"), gid=f"gl_o-{reference}",
            status=status, amount=amount, currency="INR", action_nonce=new_nonce(),
            request_payload={"merchantTxnId": reference, "paymentData": {
                "totalAmount": amount, "txnCurrency": "INR", "billingData": billing}},
            created_at=created or datetime(2026, 3, 1, 12, tzinfo=UTC), **columns)
        db.session.add(payment)
        db.session.commit()
        return payment.id


def references(page) -> list[str]:
    """The order references the list shows, in order."""
    return [tr.select_one("code").get_text()
            for tr in page.soup.select("table.payments tbody tr")]
