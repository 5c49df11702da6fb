"""The onboarding reader (docs/gateway-contract.md, "Reading answers"), over the loopback server:
the contract's record and the docs' short answers both become one RecordAnswer, checklist
variants are read onto the portal's states, and a 2xx that cannot be read is an
UnexpectedAnswer, counted ``unknown``, never a pydantic error."""

from __future__ import annotations

from typing import Any

import pytest

from portal.gateway.errors import GatewayError, UnexpectedAnswer
from portal.gateway.onboarding.checklist_words import (
    ChecklistState,
    checklist_done,
    checklist_state,
)
from portal.gateway.onboarding.vocabulary import PennyDropStatus
from tests.gateway.support import BANK, CREATE, calls, merchant

DOCUMENT = {"merchantDocType": "PAN_CARD", "fileName": "pan.pdf", "documentContent": "JVBERi0="}


def short(data: dict[str, Any]) -> dict[str, Any]:
    """The docs' short answer around ``data`` (no gid, no record)."""
    return {"status": "SUCCESS", "message": "Done.", "data": data}


def with_checklist(**items: Any) -> dict[str, Any]:
    """A record operation's ``data`` whose checklist holds ``items``."""
    return {**merchant("PENDING_REVIEW"), "merchantOnboardingCheckListStatus": items}


def test_the_docs_bank_answer_gives_the_penny_drop_without_a_record(server, make_client):
    server.program(server.reply(200, short({"onboardingId": "ob-123",
                                            "bankVerificationStatus": "VERIFIED"})))
    answer = make_client(server.url).update_bank_details("ob-123", BANK)
    assert (answer.onboarding_id, answer.penny_drop, answer.record) == (
        "ob-123", PennyDropStatus.VERIFIED, None)
    assert answer.answer_gid == ""


def test_the_contracts_bank_answer_gives_the_record_and_its_penny_drop(server, make_client):
    data = merchant("IN_PROGRESS")
    data["merchantInfo"]["settlementDetails"] = {"pennyDropStatus": "FAILED",
                                                 "nameAtBank": None}
    server.program(server.reply(200, server.ok_body(data)))
    answer = make_client(server.url).update_bank_details("ob-123", BANK)
    assert answer.record is not None and answer.record.merchantInfo.status == "IN_PROGRESS"
    assert (answer.penny_drop, answer.answer_gid) == (PennyDropStatus.FAILED, "gl-ok-1")


def test_a_penny_drop_word_no_source_shows_is_left_unread_not_fatal(server, make_client):
    data = merchant("IN_PROGRESS")
    data["merchantInfo"]["settlementDetails"] = {"pennyDropStatus": "IN_PROGRESS"}
    server.program(server.reply(200, server.ok_body(data)),
                   server.reply(200, short({"onboardingId": "ob-123",
                                            "bankVerificationStatus": "PENDING"})))
    client = make_client(server.url)
    assert client.update_bank_details("ob-123", BANK).penny_drop is None
    assert client.update_bank_details("ob-123", BANK).penny_drop is None


def test_the_docs_upload_answer_keeps_the_documents_status(server, make_client):
    server.program(server.reply(200, short({"onboardingId": "ob-123",
                                            "merchantDocType": "PAN_CARD",
                                            "documentStatus": "UPLOADED"})))
    answer = make_client(server.url).upload_document("ob-123", DOCUMENT)
    assert (answer.record, answer.document_status) == (None, "UPLOADED")


def test_checklist_variants_are_read_onto_the_portals_states(server, make_client):
    server.program(server.reply(200, server.ok_body(with_checklist(
        businessDetails="COMPLETE", beneficialOwners="SUCCESS", bankDetails=True,
        authorisedSignatory=False, documents=None, products="failed",
        tncAcknowledged="success", digiLocker="SUCCESS", vkyc="PENDING_REVIEW",
        documentsToBeUploaded=None))))
    checklist = make_client(server.url).get_status("ob-123").merchantOnboardingCheckListStatus
    assert checklist.model_dump() == {
        "businessDetails": "COMPLETE", "beneficialOwners": "COMPLETE", "bankDetails": "COMPLETE",
        "authorisedSignatory": "PENDING", "documents": "PENDING", "products": "FAILED",
        "tncAcknowledged": "COMPLETE", "digiLocker": "COMPLETE", "vkyc": "PENDING_REVIEW",
        "documentsToBeUploaded": []}


@pytest.mark.parametrize(("value", "state", "done"), [
    ("COMPLETE", ChecklistState.COMPLETE, True), ("SUCCESS", ChecklistState.COMPLETE, True),
    (True, ChecklistState.COMPLETE, True), ("PENDING_REVIEW", ChecklistState.PENDING_REVIEW, True),
    ("PENDING", ChecklistState.PENDING, False), ("FAILED", ChecklistState.FAILED, False),
    (False, ChecklistState.PENDING, False), (None, ChecklistState.PENDING, False),
    ("", ChecklistState.PENDING, False), ("ON_HOLD", "ON_HOLD", False),
])
def test_checklist_values_of_every_source(value, state, done):
    assert (checklist_state(value), checklist_done(value)) == (state, done)


@pytest.mark.parametrize("body", [
    None, {"status": "SUCCESS"}, {"data": "done"}, {"data": {"merchantInfo": {}}},
    {"data": {"merchantInfo": {"onboardingId": None}}}, {"data": {"something": "else"}},
])
def test_an_unreadable_2xx_to_a_step_is_an_unexpected_answer_counted_unknown(
        server, make_client, body):
    before = calls("update_bank_details", "unknown")
    server.program(server.reply(200, body))
    with pytest.raises(UnexpectedAnswer) as raised:
        make_client(server.url).update_bank_details("ob-123", BANK)
    assert raised.value.outcome_unknown and raised.value.http_status == 200
    assert calls("update_bank_details", "unknown") == before + 1


def test_a_create_answer_without_an_onboarding_id_leaves_the_outcome_unknown(server,
                                                                            make_client):
    server.program(server.reply(201, short({"onboardingId": " "})),
                   server.reply(201, {"gid": "gl-c", "data": {"partnerOnboardingId": "ext-1"}}))
    client = make_client(server.url)
    for _ in range(2):
        with pytest.raises(UnexpectedAnswer) as raised:
            client.create_onboarding(CREATE)
        assert raised.value.outcome_unknown
    assert raised.value.gid == "gl-c"


def test_a_status_answer_without_a_record_is_a_gateway_error_not_a_crash(server, make_client):
    server.program(server.reply(200, short({"onboardingId": "ob-123"})))
    with pytest.raises(GatewayError, match="could not be read"):
        make_client(server.url).get_status("ob-123")


def test_the_other_operations_unreadable_answers_are_gateway_errors(server, make_client):
    server.program(server.reply(200, server.ok_body({"categories": "none"})),
                   server.reply(200, server.ok_body({"link": "x"})))
    client = make_client(server.url)
    with pytest.raises(UnexpectedAnswer):
        client.get_business_categories()
    with pytest.raises(UnexpectedAnswer):
        client.get_verification_redirect("ob-123", {"callBackUrl": "https://portal.example/cb"})
