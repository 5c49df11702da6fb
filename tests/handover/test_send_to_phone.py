""""Send to my phone": the hand-over link texted to the signatory's phone on file (never a
number typed on the page), a few times an hour; the audit keeps the number masked."""

from __future__ import annotations

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models import AuditEvent
from portal.core.sms.sink import read_folder
from portal.domain.handover.texting import MAX_PER_WINDOW
from tests.handover.support import handover_path, make_code, status_of
from tests.verification.support import merchant_link, onboard


def _sms_form(phone_page: BeautifulSoup) -> str:
    form = phone_page.select_one(".phone-sms form")
    assert form is not None
    assert form.select("input:not([type=hidden])") == []  # no number can be typed
    return form["action"]


def test_the_link_is_texted_to_the_phone_on_file_only(app, client, settings):
    merchant_id = onboard(app)
    phone_page, qr_path = make_code(client, merchant_link(app, merchant_id))
    assert "ending 3210" in phone_page.select_one(".phone-sms").get_text()
    sent = client.post(_sms_form(phone_page), data={"phone": "+15550000000", "to": "x"})
    assert sent.status_code == 303
    after = BeautifulSoup(client.get(sent.headers["Location"]).data, "html.parser")
    assert "We sent a text message to your phone number ending 3210" in after.get_text(" ")

    [message] = read_folder(settings.sms_sink_folder)
    assert message.to == "+919876543210"
    texted_path = handover_path(after)
    assert f"{settings.portal_url}{texted_path}" in message.text
    assert message.text.startswith("Your payments partner: continue your verification")
    assert texted_path != qr_path  # a new hand-over: the shown code is the texted one
    assert app.test_client().get(qr_path).status_code == 410
    assert app.test_client().get(texted_path).status_code == 303
    assert status_of(client, after)["state"] == "opened"
    with app.app_context():
        event = db.session.scalars(select(AuditEvent).where(
            AuditEvent.action == "handover.sms")).one()
    assert event.detail["to"] == "ending 3210" and "9876543210" not in str(event.detail)


def test_texts_are_limited_per_hour_in_words(app, client, settings):
    merchant_id = onboard(app)
    phone_page, _path = make_code(client, merchant_link(app, merchant_id))
    action = _sms_form(phone_page)
    for _ in range(MAX_PER_WINDOW):
        assert client.post(action).status_code == 303
    refused = client.post(action)
    assert refused.status_code == 429
    alert = BeautifulSoup(refused.data, "html.parser").select_one(".phone-sms [role=alert]")
    assert "3 text messages were sent in the last hour" in alert.get_text()
    assert len(read_folder(settings.sms_sink_folder)) == MAX_PER_WINDOW


def test_a_provider_that_fails_is_said_in_words_and_audited(app, client, settings):
    app.extensions["portal_settings"] = settings.with_changes(sms_sender="http",
                                                              sms_http_url="")
    merchant_id = onboard(app)
    phone_page, _path = make_code(client, merchant_link(app, merchant_id))
    refused = client.post(_sms_form(phone_page))
    assert refused.status_code == 429
    assert "could not be sent just now" in refused.get_data(as_text=True)
    with app.app_context():
        event = db.session.scalars(select(AuditEvent).where(
            AuditEvent.action == "handover.sms")).one()
    assert event.outcome == "failed"
