"""Continue on a phone: the merchant's page makes a QR code of a single-use, short-lived
hand-over link; the phone opens it once and goes on with the merchant's link; the computer's
page reads "finished" only once the phone's status read from the gateway found it done."""

from __future__ import annotations

import segno
from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models import AuditEvent, PhoneHandover
from tests.handover.support import make_code, status_of
from tests.verification.support import complete_on_sandbox_page, frame_src, merchant_link, onboard


def test_the_code_is_a_qr_of_the_handover_link_on_portal_url(app, client, settings):
    merchant_id = onboard(app)
    phone_page, path = make_code(client, merchant_link(app, merchant_id))
    url = phone_page.select_one("[data-handover-url]")["data-handover-url"]
    assert url == settings.portal_url + path
    assert path.startswith(f"/verify/{merchant_id}/handover?token=")
    image = phone_page.select_one("img.qr-code")
    assert image["src"] == segno.make(url, error="m").svg_data_uri(scale=5, border=4)
    assert image["alt"] == "QR code of your link for your phone"
    assert "works once" in phone_page.select_one("figcaption").get_text()
    assert status_of(client, phone_page)["state"] == "waiting"
    assert phone_page.select_one("#phone-handover")["data-text-finished"] == (
        "Finished on your phone.")
    assert {s["src"] for s in phone_page.select("script")} == {"/static/js/phone-follow.js"}


def test_the_phone_opens_the_code_once_and_goes_on_with_the_merchants_link(app, client):
    merchant_id = onboard(app)
    phone_page, path = make_code(client, merchant_link(app, merchant_id))
    phone = app.test_client()
    opened = phone.get(path)
    assert opened.status_code == 303
    assert opened.headers["Location"].startswith(f"/verify/{merchant_id}?token=")
    page = BeautifulSoup(phone.get(opened.headers["Location"]).data, "html.parser")
    assert page.select_one("iframe#verification-frame") is not None
    assert status_of(client, phone_page)["state"] == "opened"

    again = app.test_client().get(path)
    assert again.status_code == 410
    words = BeautifulSoup(again.data, "html.parser").select_one(".refused").get_text(" ")
    assert "This code was already used. Make a new one on your computer." in words
    with app.app_context():
        outcomes = [(e.action, e.outcome) for e in db.session.scalars(
            select(AuditEvent).where(AuditEvent.action.like("handover.%"))
            .order_by(AuditEvent.id))]
    assert outcomes == [("handover.start", "ok"), ("handover.open", "ok"),
                        ("handover.open", "refused")]


def test_a_code_expires_after_its_minutes(app, client, portal_clock, settings):
    merchant_id = onboard(app)
    phone_page, path = make_code(client, merchant_link(app, merchant_id))
    portal_clock.advance(settings.handover_minutes * 60 + 1)
    assert status_of(client, phone_page)["state"] == "expired"
    late = app.test_client().get(path)
    assert late.status_code == 410
    assert "This code has expired" in late.get_data(as_text=True)


def test_a_new_code_retires_the_old_one(app, client):
    merchant_id = onboard(app)
    merchant_path = merchant_link(app, merchant_id)
    _page, old = make_code(client, merchant_path)
    newer_page, new = make_code(client, merchant_path)
    assert old != new
    refused = app.test_client().get(old)
    assert refused.status_code == 410
    assert "A newer code was made for this link" in refused.get_data(as_text=True)
    assert app.test_client().get(new).status_code == 303
    assert status_of(client, newer_page)["state"] == "opened"


def test_a_forged_or_foreign_code_opens_nothing(app, client):
    merchant_id = onboard(app)
    _page, path = make_code(client, merchant_link(app, merchant_id))
    other = path.replace(f"/verify/{merchant_id}/", f"/verify/{merchant_id + 1}/")
    assert app.test_client().get(other).status_code == 410
    forged = app.test_client().get(path[:-3] + "abc")
    assert forged.status_code == 410
    assert "This code is not valid." in forged.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalars(select(PhoneHandover)).one().opened_at is None


def test_the_computer_reads_finished_only_after_the_phones_status_read(app, client):
    merchant_id = onboard(app)
    phone_page, path = make_code(client, merchant_link(app, merchant_id))
    phone = app.test_client()
    merchant_page = phone.get(phone.get(path).headers["Location"])
    complete_on_sandbox_page(frame_src(merchant_page.data))
    assert status_of(client, phone_page)["state"] == "opened"  # the gateway's word not read yet

    confirm_url = BeautifulSoup(merchant_page.data, "html.parser").select_one(
        "#verification")["data-confirm-url"]
    assert phone.post(confirm_url).json["confirmed"] is True
    status = status_of(client, phone_page)
    assert status["state"] == "finished"
    assert status["message"] == "Finished on your phone."
    assert status["next"].startswith("Thank you: your verification is complete.")
    again = BeautifulSoup(client.get(phone_page.select_one("#phone-handover")[
        "data-status-url"].replace("/status", "")).data, "html.parser")
    assert again.select_one("[data-role='state']").get_text() == "Finished on your phone."
    assert again.select_one(".phone-sms") is None  # nothing more to send
