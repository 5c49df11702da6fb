"""The payments reader judges an answer by what it says, not by its HTTP code
(docs/gateway-contract.md, "Reading answers"): a table of bodies and what each means."""

from __future__ import annotations

import pytest

from portal.gateway.errors import Declined, GatewayError, NotFound, UnexpectedAnswer
from portal.gateway.payments.answers import ActionResponse, InitiateResponse, RefundResponse
from portal.gateway.payments.reading import (
    Verdict,
    action_reader,
    is_decline,
    issued_at_ms,
    judge,
    read_status,
    refusal_words,
)
from portal.gateway.transport import Reply

ERRORS = {"displayMessage": "The card issuer declined the payment",
          "detailedMessage": "General Decline"}


@pytest.mark.parametrize(("operation", "body", "verdict"), [
    # done: a word the action is known to produce, wherever the answer puts it
    ("capture", {"status": "SENT_FOR_CAPTURE"}, Verdict.DONE),
    ("capture", {"data": {"status": "CAPTURE_STARTED"}}, Verdict.DONE),
    ("auth_reversal", {"status": "REVERSED"}, Verdict.DONE),
    ("refund", {"status": "SENT_FOR_REFUND", "reasonCode": "GL-201-001"}, Verdict.DONE),
    ("refund", {"status": "SUCCESS", "code": "GC000", "data": {"refundStatus": "INITIATED"}},
     Verdict.DONE),
    ("refund", {"status": "SUCCESS", "code": "GC000"}, Verdict.DONE),
    ("refund", {"data": {"refundStatus": "REFUND_STARTED"}}, Verdict.DONE),
    ("initiate", {"status": "INPROGRESS"}, Verdict.DONE),
    ("initiate", {"gid": "g", "data": {"redirectUrl": "u"}}, Verdict.DONE),  # no word at all
    # refused: a failure word or a decline code, with any 2xx
    ("capture", {"status": "ISSUER_DECLINE", "reasonCode": "GL-201-015"}, Verdict.REFUSED),
    ("capture", {"reasonCode": "GL-201-006"}, Verdict.REFUSED),
    # revision 4: a reason code never decides against a status word (the tables disagree)
    ("capture", {"status": "SENT_FOR_CAPTURE", "reasonCode": "GL-201-023"}, Verdict.DONE),
    ("capture", {"status": "QUEUED", "reasonCode": "GL-201-015"}, Verdict.UNKNOWN),
    ("capture", {"status": "SUCCESS", "data": {"status": "CAPTURED"}}, Verdict.DONE),
    ("auth_reversal", {"status": "CANCELLED"}, Verdict.DONE),
    ("initiate", {"status": "GENERAL_DECLINE"}, Verdict.REFUSED),
    ("capture", {"status": "CONDITIONAL_DECLINE"}, Verdict.REFUSED),
    ("refund", {"status": "FAILED", "reasonCode": "GL-201-500"}, Verdict.REFUSED),
    ("refund", {"status": "SUCCESS", "code": "GC000", "data": {"refundStatus": "FAILED"}},
     Verdict.REFUSED),
    ("auth_reversal", {"status": "DECLINED"}, Verdict.REFUSED),
    ("initiate", {"status": "REQUEST_ERROR"}, Verdict.REFUSED),
    ("capture", {"status": "system_error"}, Verdict.REFUSED),
    # not found, in a 2xx
    ("capture", {"status": "NOT_FOUND"}, Verdict.NOT_FOUND),
    # unknown: the answer does not say
    ("capture", {"status": "QUEUED"}, Verdict.UNKNOWN),
    ("capture", {}, Verdict.UNKNOWN),
    ("capture", {"status": "SENT_FOR_REFUND"}, Verdict.UNKNOWN),  # another action's word
    ("refund", {"status": "SUCCESS", "code": "GC123"}, Verdict.UNKNOWN),
    ("capture", {"status": "SUCCESS", "code": "GC000"}, Verdict.UNKNOWN),  # refunds only
    ("capture", "accepted", Verdict.UNKNOWN),
    ("capture", None, Verdict.UNKNOWN),
    ("capture", {"reasonCode": "GL-201-001", "status": ""}, Verdict.UNKNOWN),
])
def test_the_verdict_of_an_answer(operation, body, verdict):
    assert judge(operation, body) is verdict


@pytest.mark.parametrize(("code", "declined"), [
    ("GL-201-005", False), ("GL-201-006", True), ("GL-201-015", True), ("GL-201-023", True),
    ("GL-201-024", False), ("GL-201-500", True), ("GL-201-001", False), ("GL-400-006", False),
    ("", False)])
def test_decline_codes_are_the_documented_range(code, declined):
    assert is_decline(code) is declined


def reader(operation, shape):
    return lambda body, status=200: action_reader(operation, shape)(Reply(status, body))


def test_a_2xx_decline_raises_declined_with_the_gateways_words():
    read = reader("capture", ActionResponse)
    with pytest.raises(Declined) as caught:
        read({"gid": "gl-1", "status": "ISSUER_DECLINE", "reasonCode": "GL-201-015",
              "errors": ERRORS}, 201)
    error = caught.value
    assert (error.display_message, error.reason_code, error.http_status, error.gid) == (
        "The card issuer declined the payment", "GL-201-015", 201, "gl-1")
    assert not error.outcome_unknown


def test_an_answer_that_does_not_say_is_outcome_unknown():
    with pytest.raises(UnexpectedAnswer) as caught:
        reader("capture", ActionResponse)({"status": "QUEUED"})
    assert caught.value.outcome_unknown


def test_a_done_word_in_an_unreadable_shape_is_outcome_unknown():
    with pytest.raises(UnexpectedAnswer):
        reader("initiate", InitiateResponse)({"status": "INPROGRESS", "data": {}})
    with pytest.raises(UnexpectedAnswer):  # a redirect but no gid anywhere
        reader("initiate", InitiateResponse)({"data": {"redirectUrl": "https://x.example/"}})


def test_not_found_in_a_2xx_is_not_found():
    with pytest.raises(NotFound):
        reader("refund", RefundResponse)({"status": "NOT_FOUND"})
    with pytest.raises(NotFound):
        read_status(Reply(200, {"status": "NOT_FOUND", "data": None}))


def test_the_status_gid_comes_from_data_never_the_envelope():
    """Revision 4: the envelope's gid is the answer's own ("unique per API response")."""
    docs = read_status(Reply(200, {"gid": "gl_o-env", "data": {"status": "AUTHORIZED"}}))
    contract = read_status(Reply(200, {"gid": "gl-answer", "data": {"gid": "gl_o-data",
                                                                    "status": "AUTHORIZED"}}))
    assert (docs.payment_gid, contract.payment_gid) == ("", "gl_o-data")


@pytest.mark.parametrize(("body", "state"), [
    ({"status": "SUCCESS", "data": {"status": "SENT_FOR_CAPTURE"}}, "SENT_FOR_CAPTURE"),
    ({"status": "CREATED", "data": {"status": "AUTHORIZED"}}, "AUTHORIZED"),
    ({"status": "AUTHORIZED", "data": {}}, "AUTHORIZED"),
    ({"status": "SUCCESS", "data": {}}, None),
    ({"status": "FAILURE", "data": {}}, None),
    ({"status": "CREATED", "data": {}}, None),
])
def test_the_payments_state_is_data_status_before_the_envelopes(body, state):
    if state is None:
        with pytest.raises(GatewayError, match="does not say the payment's state"):
            read_status(Reply(200, body))
    else:
        assert read_status(Reply(200, body)).payment_status == state


def test_an_unknown_status_word_is_read_not_refused():
    assert read_status(Reply(200, {"gid": "g", "data": {"status": "ON_HOLD"}})).data.status \
        == "ON_HOLD"


@pytest.mark.parametrize(("body", "words"), [
    ({"errors": ERRORS, "message": "m"}, "The card issuer declined the payment"),
    ({"errors": {"detailedMessage": "General Decline"}}, "General Decline"),
    ({"errors": None, "message": "Declined by System"}, "Declined by System"),
    ({"data": {"detailedMessage": "Card expired"}}, "Card expired"),
    ({}, ""), ("text", "")])
def test_refusal_words_prefer_what_is_meant_for_a_person(body, words):
    assert refusal_words(body) == words


@pytest.mark.parametrize(("iat", "ms"), [
    ("1795746447576", 1795746447576), (1795746447576, 1795746447576),
    (1795746447, 1795746447000), ("1795746447", 1795746447000), (1795746447.5, 1795746447500)])
def test_iat_in_milliseconds_or_seconds(iat, ms):
    assert issued_at_ms(iat) == ms


@pytest.mark.parametrize("iat", [None, True, "soon", -1, float("nan"), [1]])
def test_an_iat_that_is_no_time_is_refused(iat):
    with pytest.raises(ValueError):
        issued_at_ms(iat)
