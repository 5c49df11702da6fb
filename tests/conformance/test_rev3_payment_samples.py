"""The payments samples of contract revision 3 (docs/gateway-facts.md D, samples-rev3), each
replayed through the client's reader from a loopback server that answers with it: what the client
makes of every documented answer shape. Each test names its sample; the sample names its source."""
# ruff: noqa: F811

from __future__ import annotations

import pytest

from portal.domain.payments.service import failure_message
from portal.gateway.errors import Declined, GatewayUnavailable, NotFound
from portal.gateway.telemetry import CALLS
from tests.conformance.canned import CannedGateway, canned  # noqa: F401  # a fixture
from tests.conformance.samples import sample

GID = "gl_o-9f8e7d6c5b4a39281706f5e4"


def answer_with(gateway: CannedGateway, name: str) -> str:
    """Have the gateway answer with the sample; its source."""
    documented = sample(name)
    gateway.status, gateway.body = documented.http or 200, documented.body
    return documented.source


def test_capture_success(canned):
    gateway, client = canned
    assert "standalone-capture.mdx" in answer_with(gateway, "capture-success.docs")
    answer = client.capture(GID, "CAPTURE1")
    assert (answer.status, answer.data) == ("SENT_FOR_CAPTURE", None)


def test_capture_declined_with_a_2xx_books_nothing_and_says_why(canned):
    gateway, client = canned
    assert "response-codes.mdx" in answer_with(gateway, "capture-decline-2xx.docs")
    before = CALLS.labels("capture", "refused")._value.get()
    with pytest.raises(Declined) as caught:
        client.capture(GID, "CAPTURE1")
    assert (caught.value.http_status, caught.value.reason_code) == (201, "GL-201-015")
    assert not caught.value.outcome_unknown
    assert failure_message(caught.value, "capture") == (
        "The gateway declined the capture: The card issuer declined the payment. Nothing was "
        "captured.")
    assert CALLS.labels("capture", "refused")._value.get() == before + 1


def test_capture_of_an_unknown_transaction_is_not_found(canned):
    gateway, client = canned
    assert "standalone-capture.mdx" in answer_with(gateway, "capture-not-found.docs")
    with pytest.raises(NotFound) as caught:
        client.capture(GID, "CAPTURE1")
    assert caught.value.display_message == "Transaction not found"


def test_a_system_error_is_unavailable_and_a_posts_outcome_unknown(canned):
    gateway, client = canned
    assert "GL-501-000" in answer_with(gateway, "system-error.docs")
    with pytest.raises(GatewayUnavailable) as caught:
        client.capture(GID, "CAPTURE1")
    assert caught.value.outcome_unknown and caught.value.http_status == 501


def test_payment_status_with_the_gid_in_the_envelope(canned):
    """Revision 4 withdraws revision 3's reading of this sample: the envelope's gid names the
    answer, so the status names no order id; it is matched by its merchantUniqueId."""
    gateway, client = canned
    assert "get-transaction-status.mdx" in answer_with(gateway, "payment-status.docs")
    answer = client.status("gl_o-a057c4d6b6c620741apzp0ZX2")
    data = answer.data
    assert answer.payment_gid == "" and data.gid is None
    assert data.merchantUniqueId == "IFNN939494NJFJ"
    assert (data.status, data.totalAmount, data.txnCurrency, data.paymentMethod) == (
        "SENT_FOR_CAPTURE", "10.00", "INR", "CARD")
    assert data.cardData is not None
    assert (data.cardData.maskedCardNumber, data.cardData.cardScheme) == (
        "411111XXXXXX1111", "VISA")


def test_the_docs_refund_answer_with_the_refunds_own_ids(canned):
    gateway, client = canned
    assert "refund.mdx" in answer_with(gateway, "refund.docs")
    answer = client.refund(GID, "REFUND1", "INR", amount="100.00")
    assert (answer.status, answer.code) == ("SUCCESS", "GC000")
    data = answer.data
    assert data is not None
    assert (data.gid, data.refundId, data.refundStatus, data.refundAmount, data.refundCurrency) \
        == ("GID-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "RFD-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
            "INITIATED", "100.0", "INR")


def test_the_minimal_initiate_answer(canned):
    gateway, client = canned
    assert "openapi" in answer_with(gateway, "initiate-minimal.openapi")
    answer = client.initiate({
        "merchantTxnId": "ORDER1", "captureTxn": False,
        "paymentData": {"totalAmount": "10.00", "txnCurrency": "INR"},
        "merchantCallbackURL": "https://merchant.example/callback"})
    assert answer.payment_gid == "gl_o-9f8e7d6c5b4a39281706f5e4"
    assert answer.data.redirectUrl.endswith("gl_o-9f8e7d6c5b4a39281706f5e4")
    assert (answer.data.statusUrl, answer.data.merchantTxnId) == (None, None)
