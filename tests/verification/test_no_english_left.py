"""A merchant whose language is Hindi reads no English sentence of the catalogue on any page
of their link (live, in an in-app browser, finished, over, renewed, refused), on the hand-over
pages (the code, the text sent, its refusals, the states the computer's page follows, a used
code), nor in their emails and text messages; names and loanwords (DigiLocker, UTC) aside."""

from __future__ import annotations

import pytest

from portal.core.config import Settings, current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.sms.sink import read_folder
from portal.domain.audit.service import Actor
from portal.domain.handover.texting import MAX_PER_WINDOW
from portal.domain.merchant_mail.delivery import email_link
from portal.domain.onboarding import merchant_language
from tests.handover.support import make_code, status_of
from tests.support.languages import english_left, in_hindi, read_text
from tests.support.mail import body_of, mail_sink, mailing
from tests.verification.support import merchant_link, onboard

__all__ = ["mail_sink"]
DAY = 24 * 3600
WHATSAPP = ("Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/120.0 Mobile Safari/537.36 WhatsApp/2.23.20")


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The suite's settings, mailing to the loopback sink."""
    return mailing(settings, mail_sink).with_changes(partner_name="Acme Payments")


@pytest.fixture
def hindi(app, portal_clock) -> int:
    """A merchant at PENDING_VERIFICATION whose pages ops set to Hindi."""
    merchant_id = onboard(app)
    with app.app_context():
        merchant_language.set_default(db.session.get(Merchant, merchant_id), "hi",
                                      Actor("ops@example.com"))
    return merchant_id


def test_the_link_page_live_and_in_an_in_app_browser(app, client, hindi):
    path = merchant_link(app, hindi)
    assert "वेरिफ़िकेशन" in in_hindi(client.get(path))
    assert "WhatsApp" in in_hindi(client.get(path, headers={"User-Agent": WHATSAPP}))


def test_the_hand_over_pages_their_states_and_the_text_message(app, client, hindi, settings):
    phone_page, code = make_code(client, merchant_link(app, hindi))
    assert english_left(read_text(str(phone_page))) == []
    assert "ending" not in phone_page.select_one(".phone-sms").get_text()
    assert phone_page.html["lang"] == "hi"
    assert english_left(status_of(client, phone_page)["message"]) == []
    action = phone_page.select_one(".phone-sms form")["action"]
    sent = client.post(action)
    in_hindi(client.get(sent.headers["Location"]))
    [message] = read_folder(settings.sms_sink_folder)
    assert english_left(message.text) == [] and "मिनट" in message.text
    for _ in range(MAX_PER_WINDOW - 1):
        client.post(action)
    in_hindi(client.post(action), 429)
    phone = app.test_client()
    assert phone.get(code).status_code == 410  # replaced by the texted one
    in_hindi(phone.get(code), 410)


def test_the_finished_over_renewed_and_refused_pages_and_the_emails(app, client, hindi,
                                                                     mail_sink, portal_clock):
    path = merchant_link(app, hindi)
    portal_clock.advance(DAY + 1)
    over = client.get(path)
    in_hindi(over, 410)
    in_hindi(client.post(path.replace("?token=", "/renew?token=")))
    with app.app_context():
        for template in ("merchant_link", "verification_reminder"):
            email_link(current_settings(), db.session.get(Merchant, hindi), template,
                       Actor("ops@example.com"))
    assert len(mail_sink.messages()) == 3  # the renewal, the link, the reminder
    for message in mail_sink.messages():
        assert english_left(f"{message['Subject']} {body_of(message)}") == []
    forged = client.get(f"/verify/{hindi}?token=forged", headers={"Accept-Language": "hi"})
    in_hindi(forged, 403)
    live = merchant_link(app, hindi)
    with app.app_context():
        db.session.get(Merchant, hindi).status = "PENDING_REVIEW"
        db.session.commit()
    in_hindi(client.get(live))
    portal_clock.advance(DAY + 1)
    in_hindi(client.get(live), 410)


def test_the_same_pages_in_english_do_show_the_catalogues_sentences(app, client):
    merchant_id = onboard(app)
    phone_page, _code = make_code(client, merchant_link(app, merchant_id))
    assert "Scan this code with your phone" in english_left(read_text(str(phone_page)))


def test_the_phone_page_switches_language_and_stays_the_phone_page(app, client):
    merchant_id = onboard(app)
    phone_page, _code = make_code(client, merchant_link(app, merchant_id))
    switch = phone_page.select_one("form.language-switch")
    assert switch is not None
    answer = client.post(switch["action"], data={"language": "hi"})
    assert answer.status_code == 303
    assert f"/verify/{merchant_id}/phone?" in answer.headers["Location"]
    in_hindi(client.get(answer.headers["Location"]))
