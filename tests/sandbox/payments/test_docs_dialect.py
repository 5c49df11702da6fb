"""The payments API in the docs dialect (``answerDialect: "docs"``): each answer in the shape the
gateway's docs show (docs/gateway-facts.md D, samples-rev3), read raw, and read by the
project's client."""

from __future__ import annotations

import pytest

from portal.gateway.payments.client import verify_callback_token
from portal.gateway.payments.reading import Verdict, judge
from tests.sandbox.payments.raw_calls import capture_body, paid, raw, refund_body
from tests.sandbox.payments.support import initiate_body, pay_by_card, returned
from tests.support.sandbox import speak

NOT_FOUND_BODY = {
    "status": "REQUEST_ERROR", "message": "Transaction not found", "reasonCode": "GL-400-999",
    "errors": {"displayMessage": "Transaction not found",
               "detailedMessage": "Transaction not found"}}


@pytest.fixture(autouse=True)
def docs(sandbox):
    """Every test here runs against the sandbox speaking the docs."""
    return speak(sandbox, "docs")


def test_initiate_answers_the_gid_the_redirect_and_the_status_only(client, http):
    answer = raw(client, http, "initiate", initiate_body())
    body = answer.json()
    assert answer.status_code == 200
    assert set(body) == {"gid", "status", "data"}
    assert set(body["data"]) == {"gid", "redirectUrl", "status"}
    assert body["gid"] == body["data"]["gid"]
    assert body["status"] == body["data"]["status"] == "INPROGRESS"


def test_the_status_says_the_calls_outcome_in_the_envelope_and_the_payments_in_data(client,
                                                                                     http):
    """Revision 4: the envelope's gid is the answer's own and its status the API call's
    (SUCCESS); ``data`` names the order (``data.gid``), its state and the card."""
    gid = paid(client, http)
    answer = raw(client, http, "status", id=gid)
    body = answer.json()
    assert answer.status_code == 200
    assert set(body) == {"gid", "status", "message", "timestamp", "reasonCode", "data", "errors"}
    assert (body["status"], body["errors"]) == ("SUCCESS", None) and body["gid"] != gid
    assert body["data"] == {
        "gid": gid, "merchantTxnId": "ORDER12345", "merchantUniqueId": "UNIQUE0000000001",
        "reasonCode": "GL-201-001",
        "status": "AUTHORIZED", "paymentMethod": "CARD", "totalAmount": "100.00",
        "txnCurrency": "USD",
        "cardData": {"maskedCardNumber": "411111XXXXXX1111", "cardScheme": "VISA",
                     "cardType": "CREDIT"}}
    assert client.status(gid).payment_gid == gid


def test_the_status_of_an_actions_merchant_txn_id_is_that_actions(client, http):
    gid = paid(client, http)
    raw(client, http, "capture", capture_body("CAPTURE1", "80.00"), gid=gid)
    raw(client, http, "refund", refund_body("REFUND1", "30.00"), gid=gid)
    capture = raw(client, http, "status", id="CAPTURE1").json()
    refund = raw(client, http, "status", id="REFUND1").json()
    assert capture["data"]["gid"] == refund["data"]["gid"] == gid
    assert len({capture["gid"], refund["gid"], gid}) == 3  # each answer's own
    assert (capture["data"]["status"], capture["data"]["merchantTxnId"],
            capture["data"]["totalAmount"]) == ("SENT_FOR_CAPTURE", "CAPTURE1", "80.00")
    assert (refund["data"]["status"], refund["data"]["merchantTxnId"],
            refund["data"]["totalAmount"]) == ("SENT_FOR_REFUND", "REFUND1", "30.00")


def test_capture_and_reversal_answer_without_data(client, http):
    captured = raw(client, http, "capture", capture_body("CAPTURE1"), gid=paid(client, http))
    released = paid(client, http, merchantTxnId="ORDER2")
    reversed_ = raw(client, http, "auth_reversal", {"merchantTxnId": "REVERSE1"}, gid=released)
    for answer, word in ((captured, "SENT_FOR_CAPTURE"), (reversed_, "REVERSED")):
        body = answer.json()
        assert answer.status_code == 200
        assert set(body) == {"gid", "status", "message", "timestamp", "errors"}
        assert (body["status"], body["errors"]) == (word, None)
        assert body["timestamp"].endswith("Z")
    assert client.status(released).data.status == "REVERSED"


def test_a_refund_answers_as_the_docs_refund_page_with_its_own_ids(client, http):
    gid = paid(client, http)
    client.capture(gid, "CAPTURE1")
    answer = raw(client, http, "refund", refund_body("REFUND1", "30.00"), gid=gid)
    body = answer.json()
    assert answer.status_code == 200
    assert set(body) == {"status", "code", "message", "data"}
    assert (body["status"], body["code"]) == ("SUCCESS", "GC000")
    data = body["data"]
    assert set(data) == {"gid", "refundId", "refundType", "refundStatus", "refundAmount",
                         "currency"}
    assert (data["refundType"], data["refundStatus"], data["refundAmount"],
            data["currency"]) == ("P", "INITIATED", 30.0, "USD")
    assert data["gid"] != gid and data["refundId"].startswith("RFD-")
    by_refund_gid = client.status(data["gid"])
    assert (by_refund_gid.payment_gid, by_refund_gid.data.merchantTxnId) == (gid, "REFUND1")
    second = client.refund(gid, "REFUND2", "USD", amount="20.00")
    assert (second.data.refundStatus, second.data.refundAmount) == ("INITIATED", "20.0")
    assert client.status(gid).data.status == "SENT_FOR_REFUND"


@pytest.mark.parametrize(("name", "request_body", "params"), [
    ("status", None, {"id": "gl_o-unknown"}),
    ("status", None, {"id": "NOSUCHORDER"}),
    ("capture", capture_body("CAPTURE1"), {"gid": "gl_o-unknown"}),
    ("auth_reversal", {"merchantTxnId": "REVERSE1"}, {"gid": "gl_o-unknown"}),
    ("refund", refund_body("REFUND1", "1.00"), {"gid": "gl_o-unknown"}),
])
def test_an_unknown_payment_is_a_400_gl_400_999_on_every_call(client, http, name,
                                                              request_body, params):
    answer = raw(client, http, name, request_body, **params)
    assert (answer.status_code, answer.json()) == (400, NOT_FOUND_BODY)


def test_another_merchants_payment_is_not_found_either(client, make_client, http,
                                                       other_merchant_keys):
    gid = paid(client, http)
    other = make_client(mid="MID0000002", kid="kid-merchant-2",
                        private_pem=other_merchant_keys.private_pem)
    answer = raw(other, http, "status", id=gid)
    assert (answer.status_code, answer.json()) == (400, NOT_FOUND_BODY)


def test_a_refusal_by_state_is_a_400_in_the_docs_error_envelope(client, http):
    gid = paid(client, http)
    client.capture(gid, "CAPTURE1")
    answer = raw(client, http, "capture", capture_body("CAPTURE2"), gid=gid)
    body = answer.json()
    assert answer.status_code == 400
    words = "A payment in status SENT_FOR_CAPTURE cannot be captured"
    assert body == {"status": "REQUEST_ERROR", "reasonCode": "GL-400-002", "message": words,
                    "errors": {"displayMessage": words, "detailedMessage": words}}


def test_a_field_refusal_names_its_fields_in_the_detailed_message_only(client, http, signer):
    gid = paid(client, http)
    answer = signer.post({"merchantTxnId": "R1", "refundType": "X"},
                         path=f"/gl/v1/payments/{gid}/refund")
    body = answer.json()
    assert answer.status_code == 400
    assert set(body) == {"status", "message", "reasonCode", "errors"}
    assert body["reasonCode"] == "VALIDATION_ERROR"
    assert "merchantTxnId: Use 4 to 50 letters or digits" in body["errors"]["detailedMessage"]


def test_an_authentication_refusal_is_in_the_docs_error_envelope(make_client, http,
                                                                 stranger_keys):
    stranger = make_client(private_pem=stranger_keys.private_pem)
    answer = raw(stranger, http, "status", id="gl_o-x")
    assert answer.status_code == 401
    assert set(answer.json()) == {"status", "message", "reasonCode", "errors"}


def test_the_callback_token_names_the_order_and_the_transaction_with_iat_in_seconds(
        client, http, sandbox, gateway_keys):
    """The 2025 pre-signed token (revision 4): ``x-gl-orderId`` the initiate's id, ``x-gl-gid``
    a second id, the transaction's."""
    started = client.initiate(initiate_body())
    token = returned(pay_by_card(http, started.data.redirectUrl, "4111111111111111")).token
    claims = sandbox.payments.gateway_key.verify(token)
    assert "gid" not in claims and "status" not in claims and "statusUrl" not in claims
    assert claims["x-gl-orderId"] == started.payment_gid
    assert claims["x-gl-gid"].startswith("gl_") and claims["x-gl-gid"] != started.payment_gid
    assert claims["iat"] == sandbox.clock.now_ms() // 1000
    read = verify_callback_token(token, gateway_keys.public_pem, sandbox.clock.now_ms())
    assert (read.order_ids, read.transaction_id, read.status) == (
        (started.payment_gid,), claims["x-gl-gid"], None)
    assert client.status(claims["x-gl-gid"]).payment_gid == started.payment_gid


def test_every_docs_answer_of_a_journey_is_judged_done_by_the_reader(client, http):
    gid = paid(client, http)
    assert judge("capture", raw(client, http, "capture", capture_body("CAPTURE1"), gid=gid).json()
                 ) is Verdict.DONE
    assert judge("refund", raw(client, http, "refund", refund_body("REFUND1", "5.00"), gid=gid
                               ).json()) is Verdict.DONE
    assert judge("initiate", raw(client, http, "initiate", initiate_body()).json()
                 ) is Verdict.DONE
