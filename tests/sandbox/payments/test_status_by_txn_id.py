"""Status by gid or merchantTxnId (api-reference get-transaction-status: "Pass PayGlocal gid or
your merchantTxnId"): of the payment, or of one of its captures, reversals and refunds."""

from __future__ import annotations

import pytest

from portal.gateway.errors import NotFound, Unauthorized
from portal.gateway.payments.words import PaymentStatus
from portal.sandbox.common.errors import NOT_FOUND
from tests.sandbox.payments.support import (
    OTHER_KID,
    OTHER_MID,
    initiate_body,
    pay_by_card,
    returned,
)

APPROVED_CARD = "4111111111111111"


@pytest.fixture
def captured(client, http) -> str:
    """A payment of 100.00 USD, authorised, captured for 80.00 and refunded 30.00; its gid."""
    started = client.initiate(initiate_body())
    returned(pay_by_card(http, started.data.redirectUrl, APPROVED_CARD))
    client.capture(started.gid, "CAPTURE1", amount="80.00")
    client.refund(started.gid, "REFUND1", "USD", amount="30.00")
    return started.gid


def test_the_payment_by_its_merchant_txn_id(client, captured):
    data = client.status("ORDER12345").data
    assert (data.gid, data.status, data.merchantTxnId, data.Amount, data.Currency) == (
        captured, PaymentStatus.SENT_FOR_REFUND, "ORDER12345", "100.00", "USD")


def test_a_capture_by_its_own_merchant_txn_id(client, captured):
    answer = client.status("CAPTURE1")
    assert answer.status == PaymentStatus.SENT_FOR_CAPTURE  # as it stood after the capture
    data = answer.data
    assert (data.gid, data.status, data.merchantTxnId, data.Amount, data.Currency) == (
        captured, PaymentStatus.SENT_FOR_CAPTURE, "CAPTURE1", "80.00", "USD")


def test_a_refund_by_its_own_merchant_txn_id(client, captured):
    data = client.status("REFUND1").data
    assert (data.gid, data.status, data.merchantTxnId, data.Amount) == (
        captured, PaymentStatus.SENT_FOR_REFUND, "REFUND1", "30.00")


def test_a_reversal_by_its_own_merchant_txn_id(client, http):
    started = client.initiate(initiate_body())
    returned(pay_by_card(http, started.data.redirectUrl, APPROVED_CARD))
    client.reverse(started.gid, "REVERSE1")
    data = client.status("REVERSE1").data
    assert (data.gid, data.status, data.merchantTxnId) == (started.gid, "REVERSED", "REVERSE1")


def test_no_running_totals_in_the_status(client, captured):
    data = client.status(captured).model_dump(exclude_none=True)["data"]
    assert not {"capturedAmount", "refundedAmount"} & set(data)


def test_a_merchant_txn_id_the_gateway_never_got_is_not_found(client, captured):
    with pytest.raises(NotFound) as missing:
        client.status("REFUND2")
    assert missing.value.reason_code == NOT_FOUND


def test_another_merchants_merchant_txn_id_is_not_found(make_client, other_merchant_keys,
                                                        captured):
    other = make_client(mid=OTHER_MID, kid=OTHER_KID, private_pem=other_merchant_keys.private_pem)
    for name in ("ORDER12345", "CAPTURE1", "REFUND1"):
        with pytest.raises(NotFound):
            other.status(name)


def test_a_status_url_opens_only_its_own_payment(client, http, captured):
    second = client.initiate(initiate_body(merchantTxnId="ORDER99999"))
    token = second.data.statusUrl.split("?", 1)[1]
    own = http.get(f"{client.transport.base_url}/gl/v1/payments/ORDER99999/status?{token}",
                   timeout=5)
    assert (own.status_code, own.json()["data"]["gid"]) == (200, second.gid)
    other = http.get(f"{client.transport.base_url}/gl/v1/payments/CAPTURE1/status?{token}",
                     timeout=5)
    assert other.status_code == 401


def test_a_signed_status_read_of_a_txn_id_checks_the_signature(make_client, stranger_keys,
                                                                captured):
    forged = make_client(private_pem=stranger_keys.private_pem)
    with pytest.raises(Unauthorized):
        forged.status("CAPTURE1")
