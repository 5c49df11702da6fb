"""The payments samples of docs/gateway-facts.md section C, replayed: each request the real
gateway's sources send goes to the sandbox (served on loopback), each answer they recorded goes to
the client (from a loopback server that answers with it). The samples are written out here as the
sources show them; each test names its source.

The payments fixtures are imported from ``tests/sandbox/payments/conftest.py`` (this folder has no
conftest of its own), so their names are parameters here too.
"""
# ruff: noqa: F811

from __future__ import annotations

from decimal import Decimal

import pytest

from portal.domain.payments.service import failure_message
from portal.gateway.errors import GatewayError, ValidationFailed
from portal.gateway.payments.client import PaymentsClient
from portal.gateway.payments.operations import OPERATIONS
from portal.gateway.payments.words import PaymentStatus
from tests.conformance.canned import CannedGateway, canned  # noqa: F401  # a fixture
from tests.sandbox.payments.support import (  # noqa: F401  # fixtures this module uses
    KID,
    MID,
    client,
    clock,
    gateway_keys,
    http,
    initiate_body,
    make_client,
    merchant_keys,
    other_merchant_keys,
    pay_by_card,
    returned,
    sandbox,
    served_payments,
    signer,
)

APPROVED_CARD = "4111111111111111"
GID = "gl_o-962a8c2e8a7c3bd4e5b0d1XY"


@pytest.fixture
def captured(client: PaymentsClient, http) -> str:
    """A payment of 100.00 INR, authorised on the hosted page and captured; its gid."""
    started = client.initiate(initiate_body(
        paymentData={"totalAmount": "100.00", "txnCurrency": "INR"}))
    returned(pay_by_card(http, started.data.redirectUrl, APPROVED_CARD))
    client.capture(started.gid, "CAPTURE1")
    return started.gid


def path(operation: str, gid: str) -> str:
    return OPERATIONS[operation].url_path(gid=gid)


# ---------------------------------------------------------------- requests, to the sandbox


def test_refund_body_of_the_php_sdk(client, signer, captured):
    """docs/gateway-facts.md C, Refund (official PHP SDK refund.php): merchantUniqueId and
    merchantCallbackURL beside the amount and its currency."""
    body = {
        "merchantTxnId": "23AEE8CB6B62EE2AF07",
        "merchantUniqueId": "23AEE8CB6B62EE2AF07GL",
        "refundType": "P",
        "paymentData": {"totalAmount": "10.00", "txnCurrency": "INR"},
        "merchantCallbackURL": "https://api.uat.payglocal.in/gl/v1/payments/merchantCallback",
    }
    response = signer.post(body, path=path("refund", captured))
    assert response.status_code == 200, response.text
    answer = response.json()
    assert (answer["status"], answer["reasonCode"]) == ("SENT_FOR_REFUND", "GL-201-001")
    assert answer["data"] == {"merchantTxnId": "23AEE8CB6B62EE2AF07", "refundCurrency": "INR",
                              "refundAmount": "10.00"}
    assert answer["errors"] is None


def test_refund_body_of_the_docs_without_currency(signer, captured, sandbox):
    """docs/gateway-facts.md C, Refund (docs page payment-services/refund-service): a partial refund
    with merchantUniqueId and no txnCurrency, which defaults to the payment's."""
    body = {"merchantTxnId": "REFUNDDOCS0001", "merchantUniqueId": "REFUNDDOCSUNIQUE0001",
            "refundType": "P", "paymentData": {"totalAmount": "25.50"}}
    response = signer.post(body, path=path("refund", captured))
    assert response.status_code == 200, response.text
    assert response.json()["data"]["refundCurrency"] == "INR"
    assert sandbox.payments.get(captured).refunded == Decimal("25.50")


def test_capture_body_of_the_openapi(client, http, signer):
    """docs/gateway-facts.md C, Capture / reversal samples (openapi): ``{"captureType": "F"}``
    alone."""
    started = client.initiate(initiate_body())
    returned(pay_by_card(http, started.data.redirectUrl, APPROVED_CARD))
    response = signer.post({"captureType": "F"}, path=path("capture", started.gid))
    assert response.status_code == 200, response.text
    assert response.json()["status"] == PaymentStatus.SENT_FOR_CAPTURE
    assert client.status(started.gid).data.status == PaymentStatus.SENT_FOR_CAPTURE


def test_reversal_body_of_the_openapi(client, http, signer):
    """docs/gateway-facts.md C, Capture / reversal samples (openapi): ``{}``."""
    started = client.initiate(initiate_body())
    returned(pay_by_card(http, started.data.redirectUrl, APPROVED_CARD))
    response = signer.post({}, path=path("auth_reversal", started.gid))
    assert response.status_code == 200, response.text
    assert response.json()["status"] == PaymentStatus.REVERSED


def test_status_by_merchant_txn_id(client, signer, captured, http, sandbox):
    """docs/gateway-facts.md C, Status by merchantTxnId (api-reference payments-v2
    get-transaction-status): "Pass PayGlocal gid or your merchantTxnId as {id}"; ``data`` has
    ``Currency`` and no captured or refunded totals."""
    status_path = OPERATIONS["status"].url_path(id="ORDER12345")
    response = http.get(sandbox.url + status_path, timeout=5, headers={
        "x-gl-merchantid": MID, "x-gl-kid": KID,
        "x-gl-token-external": signer.token(status_path.encode("utf-8"))})
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert (data["gid"], data["merchantTxnId"], data["Amount"], data["Currency"]) == (
        captured, "ORDER12345", "100.00", "INR")
    assert not {"capturedAmount", "refundedAmount"} & set(data)


# ---------------------------------------------------------------- answers, to the client


def test_refund_answer_recorded_by_the_php_sdk(canned):
    """docs/gateway-facts.md C, Refund (official PHP SDK refund.php): the answer recorded in the
    file's comment, read by the client."""
    gateway, client = canned
    gateway.body = {
        "gid": GID, "status": "SENT_FOR_REFUND", "message": "Refund request sent successfully",
        "timestamp": "02/06/2025 13:47:21", "reasonCode": "GL-201-001",
        "data": {"merchantTxnId": "23AEE8CB6B62EE2AF07", "refundCurrency": "INR",
                 "refundAmount": "10.00"},
        "errors": None,
    }
    answer = client.refund(GID, "23AEE8CB6B62EE2AF07", "INR", amount="10.00")
    assert (answer.gid, answer.status) == (GID, "SENT_FOR_REFUND")
    assert (answer.data.merchantTxnId, answer.data.refundAmount, answer.data.refundCurrency) == (
        "23AEE8CB6B62EE2AF07", "10.00", "INR")


def test_refund_answer_of_the_docs(canned):
    """docs/gateway-facts.md C, Refund (docs page payment-services/refund-service): ``data{Amount,
    Currency, merchantTxnId}`` with an ISO timestamp, read as the same fields."""
    gateway, client = canned
    gateway.body = {
        "gid": GID, "status": "SENT_FOR_REFUND", "message": "Refund request sent successfully",
        "timestamp": "2025-06-02T13:47:21.000Z", "reasonCode": "GL-201-001",
        "data": {"Amount": "25.50", "Currency": "INR", "merchantTxnId": "REFUNDDOCS0001"},
        "errors": None,
    }
    answer = client.refund(GID, "REFUNDDOCS0001", "INR", amount="25.50")
    assert (answer.data.merchantTxnId, answer.data.refundAmount, answer.data.refundCurrency) == (
        "REFUNDDOCS0001", "25.50", "INR")


def test_error_envelope_of_the_real_gateway(canned):
    """docs/gateway-facts.md C, Errors (Magento plugin, PHP SDK): ``errors{displayMessage,
    detailedMessage}`` with a GL-400 reasonCode and no field-level list; the portal shows
    displayMessage."""
    gateway, client = canned
    gateway.status = 400
    gateway.body = {
        "gid": GID, "status": "REQUEST_ERROR", "message": "Request Error",
        "timestamp": "02/06/2025 13:47:21", "reasonCode": "GL-400-002", "data": None,
        "errors": {"displayMessage": "Transaction is already captured",
                   "detailedMessage": "Capture is not allowed for the transaction status"},
    }
    with pytest.raises(ValidationFailed) as refused:
        client.capture(GID, "CAPTURE1")
    error: GatewayError = refused.value
    assert (error.http_status, error.reason_code, error.gid) == (400, "GL-400-002", GID)
    assert error.field_errors == []
    assert error.display_message == "Transaction is already captured"
    assert not error.outcome_unknown
    assert failure_message(error, "capture") == (
        "The gateway refused the capture: Transaction is already captured")
