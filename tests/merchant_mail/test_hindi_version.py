"""The round trip of issue 39: an admin writes the Hindi version of the link email on its page,
and a merchant reading Hindi receives it by email; an English edit alone leaves them the
built-in Hindi text, and a merchant reading English gets the admin's English."""

from __future__ import annotations

from portal.core.db import db
from portal.core.models import Merchant
from portal.domain.audit.service import Actor
from portal.domain.onboarding import merchant_language
from tests.support.languages import english_left
from tests.support.mail import body_of, link_in
from tests.support.team import audited

EDIT = "/admin/emails/merchant_link"
HINDI_SUBJECT = "$business_name: वेरिफ़िकेशन बाकी है"
HINDI_BODY = "नमस्ते $signatory_name,\r\n\r\nयह लिंक खोलें: $link\r\n\r\n$partner_name"
ENGLISH = {"subject": "Verify $business_name today", "body": "Hello $signatory_name: $link"}


def _reads(app, merchant_id: int, code: str) -> None:
    with app.app_context():
        merchant_language.set_default(db.session.get(Merchant, merchant_id), code,
                                      Actor("ops@example.com"))


def _email_the_merchant(client, auth, merchant_id: int) -> None:
    auth.login("ops")
    response = client.post(f"/merchants/{merchant_id}/verification/email")
    assert response.status_code == 302


def test_a_hindi_merchant_receives_the_admins_hindi_version(app, client, auth, mail_sink,
                                                            merchant_id):
    auth.login("admin")
    client.post(EDIT, data=ENGLISH)
    assert client.post(f"{EDIT}?language=hi", data={
        "subject": HINDI_SUBJECT, "body": HINDI_BODY}).status_code == 302
    _reads(app, merchant_id, "hi")
    _email_the_merchant(client, auth, merchant_id)
    [message] = mail_sink.messages()
    assert message["Subject"] == "Sandbox Traders Private Limited: वेरिफ़िकेशन बाकी है"
    body = body_of(message)
    assert body.startswith("नमस्ते Asha Rao,")
    assert link_in(message).startswith(f"/verify/{merchant_id}?token=")
    assert english_left(body) == []
    [sent] = audited(app, "merchant_link.email")
    assert (sent.detail["template"], sent.detail["language"]) == ("merchant_link", "hi")
    auth.logout()
    assert client.get(link_in(message)).status_code == 200


def test_an_english_edit_leaves_a_hindi_merchant_the_built_in_hindi(app, client, auth,
                                                                     mail_sink, merchant_id):
    auth.login("admin")
    client.post(EDIT, data=ENGLISH)
    _reads(app, merchant_id, "hi")
    _email_the_merchant(client, auth, merchant_id)
    _reads(app, merchant_id, "en")
    _email_the_merchant(client, auth, merchant_id)
    hindi, english = mail_sink.messages()
    assert hindi["Subject"] == "Sandbox Traders Private Limited का वेरिफ़िकेशन पूरा करें"
    assert english_left(body_of(hindi)) == []
    assert english["Subject"] == "Verify Sandbox Traders Private Limited today"
    assert body_of(english).startswith("Hello Asha Rao: http://portal.test/verify/")
    assert [e.detail["language"] for e in audited(app, "merchant_link.email")] == ["hi", "en"]
