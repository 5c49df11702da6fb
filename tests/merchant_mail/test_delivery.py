"""'Email the merchant' and the copy button on the verification page."""

from __future__ import annotations

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.config import SETTINGS_EXTENSION
from portal.core.db import db
from portal.core.models import AuditEvent, MerchantLink
from tests.support.accounts import TEST_PASSWORD, AuthActions
from tests.support.mail import body_of, link_in
from tests.wizard.support import closed_port

__all__ = ["closed_port"]
SIGNATORY = "asha.rao@merchant.example.com"


def _flash(response) -> str:
    return BeautifulSoup(response.data, "html.parser").select_one(".flash").get_text(strip=True)


def test_email_the_merchant_sends_the_signatory_a_working_link(app, client, auth, mail_sink,
                                                               merchant_id):
    auth.login("ops")
    page = BeautifulSoup(client.get(f"/merchants/{merchant_id}/verification").data,
                         "html.parser")
    assert "a***@merchant.example.com" in page.get_text()
    response = client.post(f"/merchants/{merchant_id}/verification/email",
                           follow_redirects=True)
    assert _flash(response) == ("A verification link (valid 24 hours) was emailed to "
                                "a***@merchant.example.com.")
    [message] = mail_sink.messages()
    assert message["To"] == SIGNATORY
    assert message["Subject"].startswith("Complete the verification of ")
    assert body_of(message).startswith("Dear Asha")
    link = link_in(message)
    assert link.startswith(f"/verify/{merchant_id}?token=")
    auth.logout()
    opened = client.get(link)
    assert opened.status_code == 200
    assert BeautifulSoup(opened.data, "html.parser").select_one("iframe#verification-frame")
    with app.app_context():
        event = db.session.scalars(select(AuditEvent).where(
            AuditEvent.action == "merchant_link.email")).one()
    assert (event.outcome, event.merchant_id, event.detail["to"]) == (
        "ok", merchant_id, "a***@merchant.example.com")
    assert "token" not in str(event.detail)


def test_a_refused_email_withdraws_its_link_and_says_so(app, client, auth, mail_sink,
                                                        merchant_id, closed_port):
    settings = app.extensions[SETTINGS_EXTENSION]
    port = int(closed_port.rsplit(":", 1)[1])
    app.extensions[SETTINGS_EXTENSION] = settings.with_changes(mail_port=port)
    auth.login("ops")
    response = client.post(f"/merchants/{merchant_id}/verification/email",
                           follow_redirects=True)
    assert "could not be sent" in _flash(response)
    with app.app_context():
        link = db.session.scalars(select(MerchantLink)).one()
        assert link.revoked_at is not None
        outcomes = [e.outcome for e in db.session.scalars(select(AuditEvent).where(
            AuditEvent.action == "merchant_link.email"))]
    assert outcomes == ["failed"]


def test_email_the_merchant_needs_a_csrf_token(csrf_app, csrf_client, mail_sink, merchant_id):
    AuthActions(csrf_app, csrf_client).create("ops")
    token = BeautifulSoup(csrf_client.get("/login").data, "html.parser").select_one(
        "input[name=csrf_token]")["value"]
    csrf_client.post("/login", data={"email": "ops@example.com",
                                     "password": TEST_PASSWORD,
                                     "csrf_token": token})
    response = csrf_client.post(f"/merchants/{merchant_id}/verification/email")
    assert response.status_code == 400
    assert mail_sink.messages() == []


def test_a_new_link_is_shown_once_with_a_copy_button(client, auth, merchant_id):
    auth.login("ops")
    response = client.post(f"/merchants/{merchant_id}/verification/links")
    page = BeautifulSoup(response.data, "html.parser")
    field = page.select_one("#merchant-link-url")
    assert field["value"].startswith(f"http://localhost/verify/{merchant_id}?token=")
    assert page.select_one('button[data-copy="merchant-link-url"]').get_text() == "Copy link"
    again = BeautifulSoup(client.get(f"/merchants/{merchant_id}/verification").data,
                          "html.parser")
    assert again.select_one("#merchant-link-url") is None
