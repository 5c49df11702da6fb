"""A bank change after approval, through the pages: asked by ops with a cancelled cheque,
approved by a second admin, emailed to the gateway's support (the proof attached), the record
reset by the sandbox's support, the bank step sent again with the new account, and done."""

from __future__ import annotations

from bs4 import BeautifulSoup

from portal.core.db import db
from portal.core.models.change_request import ChangeState
from portal.core.models.merchant import Merchant
from portal.domain.onboarding import scenarios
from tests.change_requests.support import (
    NEW_BANK,
    SUPPORT,
    ask_bank_change,
    change_of,
)
from tests.support.approvals import decide_all
from tests.support.mail import body_of
from tests.support.team import audited
from tests.verification.support import backend_of
from tests.wizard.support import typed


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "html.parser")


def test_a_bank_change_goes_from_request_to_the_step_sent_again(app, client, auth, sandbox,
                                                                 merchant_id, mail_sink):
    auth.login("ops")
    page = soup(client.get(f"/merchants/{merchant_id}"))
    bank = page.select_one(".change-sections [data-section='bank'] a")
    assert bank.get_text(" ", strip=True).startswith("Request a change")
    form = soup(client.get(bank["href"]))
    assert "Now: ******7890" in form.get_text(" ")  # the account masked

    response = ask_bank_change(client, merchant_id)
    assert response.status_code == 302
    detail = soup(client.get(response.headers["Location"]))
    assert detail.select_one(".change-request")["data-state"] == "drafted"
    assert detail.select_one("h2#state-heading").get_text() == "Waiting for approval"
    assert "998877665544" not in detail.get_text()  # the new account masked on the page too
    assert "********5544" in detail.get_text()

    [approved] = decide_all(app)
    assert "emailed to the gateway's support" in soup(approved).get_text()
    [message] = mail_sink.messages()
    assert message["To"] == SUPPORT
    body = body_of(message)
    assert "Account number: ******7890 -> 998877665544" in body  # in full for the support
    assert "reset the onboarding record" in body
    [attachment] = list(message.iter_attachments())
    assert attachment.get_content_type() == "application/pdf"
    assert change_of(app, merchant_id).state == ChangeState.SENT

    detail = soup(client.get(f"/merchants/{merchant_id}/changes/{change_of(app, merchant_id).id}"))
    reset = detail.select_one("form.sandbox-reset")
    client.post(reset["action"])
    assert change_of(app, merchant_id).state == ChangeState.REOPENED

    step = client.get(f"/merchants/{merchant_id}/steps/bank")
    assert b"lock-reason" not in step.data and b'name="bankAccountNumber"' in step.data
    sent = client.post(f"/merchants/{merchant_id}/steps/bank",
                       data={**typed(scenarios.HAPPY, "bank"), **NEW_BANK, "action": "send"},
                       follow_redirects=True)
    assert sent.status_code == 200
    assert change_of(app, merchant_id).state == ChangeState.APPLIED
    with app.app_context():
        onboarding_id = db.session.get(Merchant, merchant_id).onboarding_id
    record = backend_of(sandbox)._get(onboarding_id)
    assert record.bank.bankAccountNumber == "998877665544"
    assert not record.reset_sections  # one change only
    assert [e.detail["to"] for e in audited(app, "change_request.applied")] == ["applied"]
    page = soup(client.get(f"/merchants/{merchant_id}"))
    assert page.select_one(".change-sections [data-section='bank'] a").get_text(
        " ", strip=True).startswith("Request a change")  # locked again, a new one possible
    assert page.select(".change-history li")
