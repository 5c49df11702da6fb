"""Change requests' rules: every refusal in words beside its field with nothing stored, one
open request per section (two people asking at once store one), a rejected or unsent approval,
and the support's refusal closing the request."""

from __future__ import annotations

import io
import threading

from bs4 import BeautifulSoup
from sqlalchemy import func, select

from portal.core.config import SETTINGS_EXTENSION, current_settings
from portal.core.db import db
from portal.core.models.change_request import ChangeRequest, ChangeState
from portal.core.models.merchant import Merchant
from portal.core.models.notice import NoticeKind
from portal.domain.audit.service import Actor
from portal.domain.change_requests.sections import SECTIONS
from portal.domain.change_requests.service import ChangeRefused, Proof
from portal.domain.four_eyes.requests import request_change
from portal.domain.onboarding.reopened import CHANGEABLE_STEPS
from portal.domain.onboarding.scenarios import sample_pdf
from portal.domain.users.accounts import find_user
from tests.change_requests.support import NEW_BANK, REASON, ask_bank_change, change_of
from tests.support.accounts import AuthActions
from tests.support.approvals import decide_all
from tests.support.interleave import writes_held_together
from tests.support.team import notices_of


def errors(response, field: str) -> str:
    found = BeautifulSoup(response.data, "html.parser").select_one(f"#{field}-errors")
    return found.get_text(" ", strip=True) if found else ""


def count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count(ChangeRequest.id)))


def test_each_refusal_is_beside_its_field_and_stores_nothing(app, client, auth, merchant_id):
    auth.login("ops")
    no_proof = ask_bank_change(client, merchant_id, proof=b"")
    assert errors(no_proof, "proof") == "Attach the proof: a cancelled cheque of the new account."
    not_a_pdf = ask_bank_change(client, merchant_id, proof=b"<html>a cheque</html>")
    assert "Only PDF, JPEG and PNG files are accepted" in errors(not_a_pdf, "proof")
    bad_ifsc = ask_bank_change(client, merchant_id, values={**NEW_BANK, "bankIfscCode": "HDFC1"})
    assert "IFSC" in errors(bad_ifsc, "bankIfscCode")
    no_reason = ask_bank_change(client, merchant_id, reason="")
    assert errors(no_reason, "reason").startswith("Say why the change is needed")
    unchanged = ask_bank_change(client, merchant_id, values={
        "bankAccountNumber": "1234567890", "bankIfscCode": "SBIN0000000",
        "accountHolderName": "Sandbox Traders Private Limited"})
    assert errors(unchanged, "bankAccountNumber") == "Nothing changes: type the new values."
    assert count(app) == 0
    typed = BeautifulSoup(bad_ifsc.data, "html.parser")
    assert typed.select_one("[name='bankAccountNumber']")["value"] == "998877665544"  # kept


def test_a_section_has_one_open_request(app, client, auth, merchant_id):
    auth.login("ops")
    assert ask_bank_change(client, merchant_id).status_code == 302
    again = ask_bank_change(client, merchant_id)
    assert "already open" in BeautifulSoup(again.data, "html.parser").get_text()
    assert count(app) == 1


def test_two_people_asking_at_once_store_one_request(app, merchant_id):
    outcomes: list[str] = []
    start = threading.Barrier(2)

    def ask(who: str) -> None:
        with app.app_context():
            merchant = db.session.get(Merchant, merchant_id)
            start.wait()
            try:
                request_change(current_settings(), merchant, "bank", NEW_BANK, REASON,
                      Proof("cheque.pdf", io.BytesIO(sample_pdf("CANCELLED_CHEQUE"))), None,
                      Actor(who))
                outcomes.append("stored")
            except ChangeRefused as exc:
                outcomes.append(exc.message)

    with writes_held_together(db.engine(app), 2):
        threads = [threading.Thread(target=ask, args=(who,))
                   for who in ("asha@example.com", "ravi@example.com")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert sorted(outcomes)[-1] == "stored" and outcomes.count("stored") == 1, outcomes
    assert count(app) == 1


def test_a_rejected_approval_refuses_the_request_with_its_reason(app, client, auth,
                                                                 merchant_id, mail_sink):
    auth.login("ops")
    ask_bank_change(client, merchant_id)
    decide_all(app, "reject", "The cheque is of another company")
    page = client.get(f"/merchants/{merchant_id}/changes/{change_of(app, merchant_id).id}")
    text = BeautifulSoup(page.data, "html.parser").get_text(" ")
    assert "Refused" in text and "Not approved: The cheque is of another company" in text
    assert change_of(app, merchant_id).open_key is None
    assert mail_sink.messages() == []
    assert ask_bank_change(client, merchant_id).status_code == 302  # a new one may be asked


def test_without_the_support_address_the_approved_request_waits_then_is_emailed(
        app, client, auth, merchant_id, mail_sink):
    settings = app.extensions[SETTINGS_EXTENSION]
    app.extensions[SETTINGS_EXTENSION] = settings.with_changes(gateway_support_email="")
    auth.login("ops")
    ask_bank_change(client, merchant_id)
    decide_all(app)
    change = change_of(app, merchant_id)
    assert change.state == ChangeState.APPROVED and "GATEWAY_SUPPORT_EMAIL" in change.send_error
    assert mail_sink.messages() == []
    app.extensions[SETTINGS_EXTENSION] = settings
    client.post(f"/merchants/{merchant_id}/changes/{change.id}/email")
    assert change_of(app, merchant_id).state == ChangeState.SENT
    assert len(mail_sink.messages()) == 1


def test_the_supports_refusal_closes_the_request(app, client, auth, merchant_id):
    auth.login("ops")
    ask_bank_change(client, merchant_id)
    decide_all(app)
    change = change_of(app, merchant_id)
    missing = client.post(f"/merchants/{merchant_id}/changes/{change.id}/answer",
                          data={"outcome": "refused", "answer": ""})
    assert missing.status_code == 422
    assert errors(missing, "answer") == "Write what the gateway's support answered."
    client.post(f"/merchants/{merchant_id}/changes/{change.id}/answer",
                data={"outcome": "refused", "answer": "A new cheque is needed, signed."})
    closed = change_of(app, merchant_id)
    assert closed.state == ChangeState.REFUSED and closed.open_key is None
    step = client.get(f"/merchants/{merchant_id}/steps/bank")
    assert b"lock-reason" in step.data  # the section stays locked


def test_the_owner_is_told_of_the_supports_answer_by_someone_else(app, client, auth,
                                                                  merchant_id):
    owner = auth.create("ops", "owner@example.com")
    with app.app_context():
        db.session.get(Merchant, merchant_id).owner_id = find_user(owner).id
        db.session.commit()
    auth.login("ops")
    ask_bank_change(client, merchant_id)
    decide_all(app)
    change = change_of(app, merchant_id)
    client.post(f"/merchants/{merchant_id}/changes/{change.id}/answer",
                data={"outcome": "refused", "answer": "A new cheque is needed, signed."})
    [notice] = [n for n in notices_of(app, owner) if n.kind == NoticeKind.CHANGE_ANSWERED]
    assert notice.status == "refused" and notice.merchant_id == merchant_id
    reader = app.test_client()
    AuthActions(app, reader).login("ops", owner)
    inbox = BeautifulSoup(reader.get("/notices").data, "html.parser").get_text(" ")
    assert "The gateway's support refused the change asked for" in inbox


def test_the_onboarding_core_knows_every_step_a_change_request_reopens():
    assert {section.step for section in SECTIONS} == CHANGEABLE_STEPS


def test_a_change_of_products_needs_no_proof_and_reads_in_words(app, client, auth,
                                                                merchant_id, mail_sink):
    auth.login("ops")
    form = BeautifulSoup(client.get(f"/merchants/{merchant_id}/changes/new/products").data,
                         "html.parser")
    ticked = {box["value"] for box in form.select("input[name='products'][checked]")}
    assert ticked == {"INTERNATIONAL_CARDS_AND_ALT_PAYS", "DOMESTIC_CARDS_UPI_AND_INB"}
    asked = client.post(f"/merchants/{merchant_id}/changes/new/products", data={
        "products": ["DOMESTIC_CARDS_UPI_AND_INB", "GLOBAL_FUND_TRANSFER"], "reason": REASON})
    assert asked.status_code == 302
    change = change_of(app, merchant_id)
    assert change.new_values == {"products": "DOMESTIC_CARDS_UPI_AND_INB,GLOBAL_FUND_TRANSFER"}
    page = BeautifulSoup(client.get(asked.headers["Location"]).data, "html.parser")
    assert "Global fund transfer" in page.select_one(".change-values").get_text()
    decide_all(app)
    [message] = mail_sink.messages()
    assert "GLOBAL_FUND_TRANSFER" not in message.get_body(("plain",)).get_content()
