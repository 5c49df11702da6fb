"""Admins edit the merchant emails; placeholders are checked; reminders use what they saved."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models import AuditEvent, MailTemplate
from portal.core.typed_text import LINE_BREAK_HELD
from portal.domain.merchant_mail import templates
from portal.domain.merchant_mail.reminders import send_reminders
from tests.support.mail import body_of

EDIT = "/admin/emails/verification_reminder"
GOOD_BODY = "Hello $signatory_name, finish $business_name here: $link (until $expires_at). $$0"


def _errors(response, field: str) -> str:
    found = BeautifulSoup(response.data, "html.parser").select_one(f"#{field}-errors")
    return found.get_text(strip=True) if found else ""


@pytest.mark.parametrize(("subject", "body", "field", "error"), [
    ("", GOOD_BODY, "subject", "Write a subject line."),
    ("Hi", "", "body", "Write the text of the email."),
    ("Hi $name", GOOD_BODY, "subject", "Unknown placeholder $name. Use one of: $business_name, "
                                       "$signatory_name, $link, $expires_at, $partner_name."),
    ("Hi", "Pay 5$ now $link", "body", "A $ sign must start a placeholder such as "
                                       "$business_name; write $$ for a dollar sign."),
    ("Hi", "${link.__class__}", "body", "A $ sign must start a placeholder such as "
                                        "$business_name; write $$ for a dollar sign."),
    ("Hi", "No link here", "body", "The body must contain $link, or the merchant cannot open "
                                   "the verification page."),
])
def test_a_bad_template_is_explained_beside_its_field_and_kept(client, auth, subject, body,
                                                               field, error):
    auth.login("admin")
    response = client.post(EDIT, data={"subject": subject, "body": body})
    assert response.status_code == 200
    assert _errors(response, field) == error
    page = BeautifulSoup(response.data, "html.parser")
    assert page.select_one("#body").get_text().removeprefix("\r\n") == body
    assert page.select_one("#subject").get("value", "") == subject


@pytest.mark.parametrize("subject", ["Reminder\r\n$business_name", "Reminder\r$business_name",
                                     "Reminder\n$business_name"])
def test_a_subject_with_a_line_break_is_refused_beside_it(app, client, auth, subject):
    auth.login("admin")
    response = client.post(EDIT, data={"subject": subject, "body": GOOD_BODY})
    assert response.status_code == 200
    assert _errors(response, "subject") == LINE_BREAK_HELD
    with app.app_context():
        assert db.session.scalars(select(MailTemplate)).all() == []


def test_a_saved_template_is_used_and_can_be_restored(app, client, auth, mail_sink, merchant_id,
                                                      portal_clock):
    auth.login("admin")
    index = BeautifulSoup(client.get("/admin/emails").data, "html.parser")
    assert ({card["data-template"] for card in index.select(".mail-template")}
            == set(templates.DEFAULTS))  # every email, to merchants and to the team
    saved = client.post(EDIT, data={"subject": "Nudge for $business_name", "body": GOOD_BODY},
                        follow_redirects=True)
    assert "was saved" in saved.get_data(as_text=True)
    portal_clock.advance(24 * 3600)
    with app.app_context():
        assert send_reminders(current_settings()).sent == 1
    [message] = mail_sink.messages()
    assert message["Subject"].strip().startswith("Nudge for Sandbox Traders")
    body = body_of(message)
    assert body.startswith("Hello Asha Rao, finish Sandbox Traders")
    assert "/verify/" in body and body.rstrip().endswith("$0")
    auth.login("admin")  # a day passed: the idle session ended
    client.post(f"{EDIT}/restore")
    page = BeautifulSoup(client.get("/admin/emails").data, "html.parser")
    reminder = page.select_one('[data-template="verification_reminder"]')
    assert "Built-in text" in reminder.get_text()
    with app.app_context():
        actions = [e.action for e in db.session.scalars(select(AuditEvent).where(
            AuditEvent.action.startswith("mail_template.")))]
    assert actions == ["mail_template.update", "mail_template.restore"]


def test_an_unknown_template_is_not_found(client, auth):
    auth.login("admin")
    assert client.get("/admin/emails/nope").status_code == 404
