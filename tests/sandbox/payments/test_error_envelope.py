"""Payment errors as the real gateway sends them (PHP SDK, Magento plugin):
``errors{displayMessage, detailedMessage}`` and a GL reasonCode, with ``errorDetails`` beside."""

from __future__ import annotations

import pytest
from flask import Flask, jsonify

from portal.gateway.errors import (
    Conflict,
    GatewayError,
    NotFound,
    Unauthorized,
    UnexpectedAnswer,
    ValidationFailed,
)
from portal.gateway.payments.operations import OPERATIONS
from portal.sandbox.common.errors import INVALID_DATA, NOT_FOUND
from tests.sandbox.payments.support import initiate_body, pay_by_card, returned
from tests.support.servers import serve


def test_a_state_refusal_has_a_gl_code_and_a_display_message(client):
    gid = client.initiate(initiate_body()).gid
    with pytest.raises(Conflict) as refused:
        client.capture(gid, "CAPTURE1")
    body = refused.value.body
    assert (body["reasonCode"], body["status"]) == (INVALID_DATA, "REQUEST_ERROR")
    assert body["errors"] == {
        "displayMessage": "A payment in status INPROGRESS cannot be captured",
        "detailedMessage": "A payment in status INPROGRESS cannot be captured"}
    assert refused.value.display_message == "A payment in status INPROGRESS cannot be captured"


def test_an_unknown_payment_is_gl_400_999(client):
    with pytest.raises(NotFound) as missing:
        client.capture("gl_o-unknown", "CAPTURE1")
    assert missing.value.reason_code == NOT_FOUND
    assert missing.value.display_message == "No such payment"


def test_field_errors_keep_error_details_and_list_them_in_detailed_message(client, signer):
    gid = client.initiate(initiate_body()).gid
    response = signer.post({"merchantTxnId": "R1", "refundType": "X"},
                           path=OPERATIONS["refund"].url_path(gid=gid))
    body = response.json()
    assert (response.status_code, body["reasonCode"]) == (400, "VALIDATION_ERROR")
    assert {d["field"] for d in body["errorDetails"]} == {"merchantTxnId", "refundType"}
    assert body["errors"]["displayMessage"] == "Validation failed"
    assert "merchantTxnId: Use 4 to 50 letters or digits" in body["errors"]["detailedMessage"]
    assert "refundType: " in body["errors"]["detailedMessage"]


def test_an_amount_mismatch_names_its_field(client, http):
    started = client.initiate(initiate_body())
    returned(pay_by_card(http, started.data.redirectUrl, "4111111111111111"))
    with pytest.raises(ValidationFailed) as refused:
        client.capture(started.gid, "CAPTURE1", amount="100.01")
    assert refused.value.body["errors"]["detailedMessage"].startswith("paymentData.totalAmount: ")


def test_authentication_errors_carry_the_envelope_too(make_client, stranger_keys):
    client = make_client(private_pem=stranger_keys.private_pem)
    with pytest.raises(Unauthorized) as refused:
        client.status("gl_o-x")
    body = refused.value.body
    assert body["reasonCode"] == "UNAUTHORIZED"
    assert body["errors"]["displayMessage"]


@pytest.fixture
def canned(make_client):
    """A loopback gateway that answers every call with the body given, and a client for it."""
    answers: list[dict] = []
    app = Flask(__name__)

    @app.route("/<path:path>", methods=["GET", "POST"])
    def any_call(path):
        return jsonify(answers[-1])

    with serve(app) as url:
        yield answers, make_client(base_url=url)


def test_an_unreadable_answer_to_a_post_is_an_unknown_outcome(canned):
    answers, client = canned
    answers.append({"gid": "g", "status": "SENT_FOR_REFUND", "data": "accepted"})
    with pytest.raises(UnexpectedAnswer) as unknown:
        client.refund("g", "REFUND1", "USD", amount="1.00")
    assert unknown.value.outcome_unknown


def test_an_unreadable_status_is_an_error_not_an_unknown_outcome(canned):
    answers, client = canned
    answers.append({"gid": "g", "data": {"no": "status"}})
    with pytest.raises(GatewayError) as failed:
        client.status("g")
    assert not isinstance(failed.value, UnexpectedAnswer)
    assert not failed.value.outcome_unknown
