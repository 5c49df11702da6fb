"""Payments calls whose raw answers a test reads (the body and HTTP status as sent, not as the
client reads them), and a payment authorised on the hosted page with a given card."""

from __future__ import annotations

from typing import Any

import requests

from portal.gateway.payments.client import PaymentsClient
from tests.sandbox.payments.support import initiate_body, pay_by_card, returned

#: A card that authorises with no scenario.
APPROVING_CARD = "4111111111111111"


def raw(client: PaymentsClient, http: requests.Session, name: str, request: Any = None,
        **params: str) -> requests.Response:
    """Send one operation as ``client`` signs it; the answer as it came."""
    return http.send(client.prepare(name, request, **params), timeout=5)


def paid(client: PaymentsClient, http: requests.Session, card: str = APPROVING_CARD,
         **changes: Any) -> str:
    """The gid of a payment initiated (``changes`` to the body) and paid with ``card``."""
    started = client.initiate(initiate_body(**changes))
    returned(pay_by_card(http, started.data.redirectUrl, card))
    return started.payment_gid


def capture_body(merchant_txn_id: str, amount: str | None = None) -> dict[str, Any]:
    """A capture in full, or in part for ``amount``."""
    body: dict[str, Any] = {"merchantTxnId": merchant_txn_id,
                            "captureType": "P" if amount else "F"}
    if amount:
        body["paymentData"] = {"totalAmount": amount}
    return body


def refund_body(merchant_txn_id: str, amount: str, currency: str = "USD") -> dict[str, Any]:
    """A partial refund of ``amount``."""
    return {"merchantTxnId": merchant_txn_id, "refundType": "P",
            "paymentData": {"totalAmount": amount, "txnCurrency": currency}}
