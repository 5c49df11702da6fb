"""A merchant whose stored name holds a carriage return (as a database written before names
were refused with one could hold) still gets its emails, their subjects on one line; an email
that still cannot be written (an address holding a line break) is a clear error that changes
nothing, and a failed reminder, audited and tried again on the next run."""

from __future__ import annotations

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models import MailTemplate, Merchant, MerchantLink, StepDraft
from portal.domain.merchant_mail.reminders import send_reminders
from tests.support.team import audited

DAY = 24 * 3600
SIGNATORY = "asha.rao@merchant.example.com"
#: What a form took before this fix: a line break typed into a name.
STORED_NAME = "Chai\rPoint\r\nPvt Ltd"
FOLDED_NAME = "Chai Point Pvt Ltd"


def store_name(app, merchant_id: int) -> None:
    """Write the name with its carriage returns straight to the database."""
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        merchant.legal_name = merchant.display_name = STORED_NAME
        db.session.commit()


def signatory_email(app, merchant_id: int, email: str) -> None:
    """Write the signatory's email of step 5's draft straight to the database."""
    with app.app_context():
        draft = db.session.scalar(select(StepDraft).where(StepDraft.merchant_id == merchant_id,
                                                          StepDraft.step == "signatory"))
        draft.payload = {**draft.payload, "contact": {**draft.payload["contact"],
                                                      "email": email}}
        db.session.commit()


def email_merchant(client, merchant_id: int):
    return client.post(f"/merchants/{merchant_id}/verification/email", follow_redirects=True)


def flashed(response) -> str:
    return BeautifulSoup(response.data, "html.parser").select_one(".flash").get_text(strip=True)


def test_a_name_stored_with_a_carriage_return_still_gets_its_link_email(app, client, auth,
                                                                         mail_sink,
                                                                         merchant_id):
    store_name(app, merchant_id)
    auth.login("ops")
    response = email_merchant(client, merchant_id)
    assert response.status_code == 200
    assert flashed(response).startswith("A verification link (valid 24 hours) was emailed")
    [message] = mail_sink.messages()
    assert message["Subject"] == f"Complete the verification of {FOLDED_NAME}"


def test_a_template_subject_stored_with_a_line_break_is_folded(app, client, auth, mail_sink,
                                                               merchant_id):
    with app.app_context():
        db.session.add(MailTemplate(key="merchant_link", language="en",
                                    subject="Verify\r\n$business_name",
                                    body="Open $link", updated_by="admin@example.com",
                                    updated_at=clock.utcnow()))
        db.session.commit()
    store_name(app, merchant_id)
    auth.login("ops")
    assert email_merchant(client, merchant_id).status_code == 200
    assert mail_sink.messages()[0]["Subject"] == f"Verify {FOLDED_NAME}"


def test_reminders_reach_a_merchant_whose_name_holds_a_carriage_return(app, mail_sink,
                                                                       merchant_id,
                                                                       portal_clock):
    store_name(app, merchant_id)
    portal_clock.advance(DAY)
    with app.app_context():
        assert send_reminders(current_settings()).summary().startswith("reminders: 1 sent")
    [message] = mail_sink.messages()
    assert message["Subject"] == f"Reminder: {FOLDED_NAME} still needs your verification"


def test_an_email_that_cannot_be_written_is_a_clear_error_and_saves_no_link(app, client, auth,
                                                                            mail_sink,
                                                                            merchant_id):
    signatory_email(app, merchant_id, f"{SIGNATORY}\r\nBcc: spy@example.net")
    auth.login("ops")
    response = email_merchant(client, merchant_id)
    assert response.status_code == 200  # the verification page again, never a 500
    assert flashed(response) == ("The email could not be sent: the recipient's address is not "
                                 "a single email address.")
    assert mail_sink.messages() == []
    with app.app_context():
        [link] = db.session.scalars(select(MerchantLink)).all()
        assert link.revoked_at is not None  # the link made for it does not stay live
    assert [e.outcome for e in audited(app, "merchant_link.email")] == ["failed"]


def test_a_reminder_that_cannot_be_written_fails_and_is_tried_again(app, mail_sink, merchant_id,
                                                                    portal_clock):
    signatory_email(app, merchant_id, f"{SIGNATORY}\r\nBcc: spy@example.net")
    portal_clock.advance(DAY)
    with app.app_context():
        assert send_reminders(current_settings()).summary().startswith(
            "reminders: 0 sent, 1 failed")
    assert [e.outcome for e in audited(app, "merchant_link.email")] == ["failed"]
    signatory_email(app, merchant_id, SIGNATORY)  # put right: the next run sends it
    with app.app_context():
        assert send_reminders(current_settings()).summary().startswith("reminders: 1 sent")
    assert [m["To"] for m in mail_sink.messages()] == [SIGNATORY]
