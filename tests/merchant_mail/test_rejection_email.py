"""The rejection email (issue 36.3 and 36.10): a rejected merchant's status page offers to email
its signatory the rejection, in the merchant's language, with the gateway's reason; sending it
notes the merchant told (off the worklist) and is audited; admins edit it like the others,
without a $link."""

from __future__ import annotations

from bs4 import BeautifulSoup

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.onboarding import scenarios
from tests.support.mail import body_of
from tests.support.rows import stored
from tests.support.team import audited
from tests.verification.support import onboard, reviewed

SIGNATORY = "asha.rao@merchant.example.com"
BUTTON = "form.rejection-email"


def status_page(client, merchant_id: int) -> BeautifulSoup:
    response = client.get(f"/merchants/{merchant_id}/status")
    assert response.status_code == 200
    return BeautifulSoup(response.data, "html.parser")


def rejected(app, client, sandbox) -> int:
    merchant_id = reviewed(app, client, sandbox, scenarios.REVIEW_REJECTED)
    assert stored(app, merchant_id).status == "REJECTED"
    return merchant_id


def test_the_status_page_offers_the_email_and_sending_it_tells_the_merchant(
        app, client, auth, sandbox, mail_sink, portal_server):
    auth.login("admin")
    merchant_id = rejected(app, client, sandbox)
    soup = status_page(client, merchant_id)
    assert soup.select_one(f"{BUTTON} button").get_text() == \
        "Email the rejection to the signatory"
    response = client.post(f"/merchants/{merchant_id}/rejection-email",
                           data={"back": "status"}, follow_redirects=True)
    page = BeautifulSoup(response.data, "html.parser")
    assert "The rejection was emailed to a***@merchant.example.com" in page.get_text()
    [message] = mail_sink.messages()
    assert message["To"] == SIGNATORY
    assert message["Subject"].endswith("was not approved")
    body = body_of(message)
    assert "did not approve the onboarding of" in body
    assert "The gateway's reason: \u201cRejected after the compliance review\u201d" in body
    assert "$" not in body
    assert stored(app, merchant_id).rejection_told_at is not None
    assert page.select_one(BUTTON) is None
    assert "The merchant was told on" in page.select_one(".rejection-told").get_text()
    assert [e.detail["to"] for e in audited(app, "merchant.rejection_email")] == [
        "a***@merchant.example.com"]
    assert client.get("/worklist").data.count(b'data-reason="rejected_untold"') == 0


def test_a_hindi_merchant_reads_it_in_hindi(app, client, auth, sandbox, mail_sink,
                                           portal_server):
    auth.login("admin")
    merchant_id = rejected(app, client, sandbox)
    with app.app_context():
        db.session.get(Merchant, merchant_id).language = "hi"
        db.session.commit()
    client.post(f"/merchants/{merchant_id}/rejection-email", data={"back": "status"})
    [message] = mail_sink.messages()
    assert message["Subject"].endswith("की ऑनबोर्डिंग को मंज़ूरी नहीं मिली")
    assert "गेटवे का कारण: \u201cRejected after the compliance review\u201d" in body_of(message)


def test_an_admins_version_without_a_link_is_saved_and_sent(app, client, auth, sandbox,
                                                           mail_sink, portal_server):
    auth.login("admin")
    saved = client.post("/admin/emails/merchant_rejected", data={
        "subject": "About $business_name", "body": "Sorry, $signatory_name. $reason"},
        follow_redirects=True)
    assert saved.status_code == 200 and b"was saved" in saved.data
    merchant_id = rejected(app, client, sandbox)
    client.post(f"/merchants/{merchant_id}/rejection-email", data={"back": "status"})
    [message] = mail_sink.messages()
    assert body_of(message).startswith("Sorry, Asha")


def test_only_a_rejected_merchant_is_emailed_so(app, client, auth, mail_sink):
    auth.login("admin")
    merchant_id = onboard(app)
    response = client.post(f"/merchants/{merchant_id}/rejection-email",
                           data={"back": "status"}, follow_redirects=True)
    assert "Only a merchant the gateway rejected is told so." in response.get_data(as_text=True)
    assert mail_sink.messages() == []
