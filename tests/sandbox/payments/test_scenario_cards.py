"""The scenario cards, in both answer dialects: a capture declined with HTTP 201, refunds declined
with HTTP 200, a capture applied but answered with an undocumented status word; read raw, then by
the project's client (a refusal, or an outcome settled by a status read)."""

from __future__ import annotations

import pytest

from portal.gateway.errors import Declined, UnexpectedAnswer
from tests.sandbox.payments.raw_calls import capture_body, paid, raw, refund_body

CAPTURE_DECLINED = "4000000000000259"
REFUND_DECLINED = "4000000000000267"
CAPTURE_QUEUED = "4000000000000275"


def test_a_capture_declined_with_201_captures_nothing(client, http, answer_dialect):
    gid = paid(client, http, CAPTURE_DECLINED)
    assert client.status(gid).data.status == "AUTHORIZED"
    answer = raw(client, http, "capture", capture_body("CAPTURE1", "60.00"), gid=gid)
    assert answer.status_code == 201
    assert answer.json() == {
        "gid": gid, "status": "ISSUER_DECLINE", "message": "General Decline",
        "reasonCode": "GL-201-015",
        "errors": {"displayMessage": "The card issuer declined the payment",
                   "detailedMessage": "General Decline"}}
    assert client.status(gid).data.status == "AUTHORIZED"
    declined = client.status("CAPTURE1").data
    assert (declined.status, declined.merchantTxnId) == ("ISSUER_DECLINE", "CAPTURE1")
    with pytest.raises(Declined) as refused:
        client.capture(gid, "CAPTURE2")
    assert refused.value.display_message == "The card issuer declined the payment"
    assert refused.value.http_status == 201
    assert client.status(gid).data.status == "AUTHORIZED"
    assert client.reverse(gid, "REVERSE1").status == "REVERSED"


def test_every_refund_of_the_refund_declined_card_is_refused_with_200(client, http,
                                                                       answer_dialect):
    gid = paid(client, http, REFUND_DECLINED)
    assert client.capture(gid, "CAPTURE1").status == "SENT_FOR_CAPTURE"
    answer = raw(client, http, "refund", refund_body("REFUND1", "30.00"), gid=gid)
    assert answer.status_code == 200
    body = answer.json()
    assert (body["gid"], body["status"], body["reasonCode"]) == (gid, "FAILED", "GL-201-500")
    assert body["errors"]["displayMessage"] == "The refund was declined by the gateway"
    assert body["errors"]["detailedMessage"]
    with pytest.raises(Declined) as refused:
        client.refund(gid, "REFUND2", "USD")
    assert refused.value.display_message == "The refund was declined by the gateway"
    assert client.status(gid).data.status == "SENT_FOR_CAPTURE"
    assert client.status("REFUND2").data.status == "FAILED"


def test_a_queued_capture_is_applied_and_found_by_its_merchant_txn_id(client, http,
                                                                      answer_dialect):
    gid = paid(client, http, CAPTURE_QUEUED)
    answer = raw(client, http, "capture", capture_body("CAPTURE1", "70.00"), gid=gid)
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "QUEUED"
    assert "data" not in body and "reasonCode" not in body
    settled = client.status("CAPTURE1").data
    assert (settled.status, settled.merchantTxnId) == ("SENT_FOR_CAPTURE", "CAPTURE1")
    assert client.status(gid).data.status == "SENT_FOR_CAPTURE"


def test_the_client_takes_a_queued_capture_as_an_unknown_outcome(client, http, answer_dialect):
    gid = paid(client, http, CAPTURE_QUEUED)
    with pytest.raises(UnexpectedAnswer) as unknown:
        client.capture(gid, "CAPTURE1")
    assert unknown.value.outcome_unknown
    assert client.status("CAPTURE1").data.status == "SENT_FOR_CAPTURE"


def test_refunds_of_a_queued_capture_answer_in_the_dialect(client, http, answer_dialect):
    gid = paid(client, http, CAPTURE_QUEUED)
    raw(client, http, "capture", capture_body("CAPTURE1"), gid=gid)
    refund = client.refund(gid, "REFUND1", "USD", amount="25.00")
    word = refund.data.refundStatus if answer_dialect == "docs" else refund.status
    assert word == {"docs": "INITIATED", "contract": "SENT_FOR_REFUND"}[answer_dialect]
    assert client.status("REFUND1").data.status == "SENT_FOR_REFUND"
