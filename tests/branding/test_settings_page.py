"""The branding settings page: an admin's name, sender, colour and logo reach the merchant's
page and email; bad input is refused beside its field in words; defaults with nothing set."""

from __future__ import annotations

import io

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models import AuditEvent
from portal.domain.branding.logo import LOGO_MAX_BYTES
from tests.branding.support import PARTNER
from tests.support.mail import body_of
from tests.support.merchant_pages import tiny_png
from tests.verification.support import merchant_link

SETTINGS = "/admin/branding"


def _form(**changes) -> dict:
    data = {"display_name": "Kerala Stays", "sender_name": "Kerala Stays Onboarding",
            "accent_colour": "#0b6e4f"}
    data.update(changes)
    return data


def _errors(response) -> dict[str, str]:
    soup = BeautifulSoup(response.data, "html.parser")
    return {ul["id"].removesuffix("-errors"): ul.get_text(" ", strip=True)
            for ul in soup.select("ul.field__errors")}


def test_with_nothing_set_the_merchant_reads_partner_name_in_the_portals_blue(app, client,
                                                                            merchant_id):
    soup = BeautifulSoup(client.get(merchant_link(app, merchant_id)).data, "html.parser")
    assert soup.select_one(".partner-header__name").get_text() == PARTNER
    assert soup.select_one(".partner-header__logo") is None
    assert client.get("/branding/logo").status_code == 404
    theme = client.get("/branding/theme.css")
    assert theme.mimetype == "text/css" and "--brand: #1f4fbf" in theme.get_data(as_text=True)


def test_an_admins_branding_reaches_the_merchants_page(app, client, auth, merchant_id):
    auth.login("admin")
    response = client.post(SETTINGS, data=_form(logo=(io.BytesIO(tiny_png()), "logo.png")),
                           content_type="multipart/form-data", follow_redirects=True)
    assert response.status_code == 200
    assert "The branding was saved" in response.get_data(as_text=True)
    soup = BeautifulSoup(client.get(merchant_link(app, merchant_id)).data, "html.parser")
    assert soup.select_one(".partner-header__name").get_text() == "Kerala Stays"
    logo = soup.select_one("img.partner-header__logo")
    assert logo["alt"] == "Kerala Stays"
    served = client.get(logo["src"])
    assert (served.status_code, served.mimetype, served.data) == (200, "image/png", tiny_png())
    assert "--brand: #0b6e4f" in client.get("/branding/theme.css").get_data(as_text=True)
    # the portal's own chrome never shows, not even to a signed-in admin
    assert soup.select_one("nav") is None and soup.select_one(".site-header") is None
    assert "Partner Onboarding Portal" not in soup.get_text()
    assert "Kerala Stays" in soup.select_one("footer").get_text()
    with app.app_context():
        event = db.session.scalars(select(AuditEvent).where(
            AuditEvent.action == "branding.update")).one()
    assert event.actor_label == "admin@example.com"
    assert event.detail["changed"] == ["display_name", "sender_name", "accent_colour", "logo"]


def test_every_email_the_merchant_receives_carries_the_partners_sender_and_name(
        app, client, auth, mail_sink, merchant_id):
    auth.login("admin")
    client.post(SETTINGS, data=_form(), content_type="multipart/form-data")
    client.post(f"/merchants/{merchant_id}/verification/email")
    [message] = mail_sink.messages()
    [sender] = message["From"].addresses
    assert (sender.display_name, sender.addr_spec) == ("Kerala Stays Onboarding",
                                                       "portal@localhost")
    assert "with Kerala Stays" in body_of(message)
    assert body_of(message).rstrip().endswith("Kerala Stays")


def test_a_light_colour_is_refused_in_words_and_what_was_typed_stays(app, client, auth):
    auth.login("admin")
    response = client.post(SETTINGS, data=_form(accent_colour="#ffbf47"),
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "too light to read" in _errors(response)["accent_colour"]
    soup = BeautifulSoup(response.data, "html.parser")
    assert soup.select_one("#accent_colour")["value"] == "#ffbf47"
    assert soup.select_one("#display_name")["value"] == "Kerala Stays"
    bad = client.post(SETTINGS, data=_form(accent_colour="green"),
                      content_type="multipart/form-data")
    assert "six hexadecimal digits" in _errors(bad)["accent_colour"]
    with app.app_context():
        assert db.session.scalars(select(AuditEvent).where(
            AuditEvent.action == "branding.update")).first() is None


def test_a_logo_is_judged_by_its_content_and_its_size(client, auth):
    auth.login("admin")
    pdf = client.post(SETTINGS, data=_form(logo=(io.BytesIO(b"%PDF-1.4\n..."), "logo.png")),
                      content_type="multipart/form-data")
    assert pdf.status_code == 400
    assert _errors(pdf)["logo"] == ("The logo must be an image: PNG, JPEG, WebP. This file is "
                                    "not one of them.")
    big = tiny_png() + b"\x00" * LOGO_MAX_BYTES
    large = client.post(SETTINGS, data=_form(logo=(io.BytesIO(big), "logo.png")),
                        content_type="multipart/form-data")
    assert "larger than the limit of 204,800 bytes" in _errors(large)["logo"]
    assert client.get("/branding/logo").status_code == 404


def test_a_logo_can_be_removed(client, auth):
    auth.login("admin")
    client.post(SETTINGS, data=_form(logo=(io.BytesIO(tiny_png()), "logo.png")),
                content_type="multipart/form-data")
    assert client.get("/branding/logo").status_code == 200
    client.post(SETTINGS, data=_form(remove_logo="y"), content_type="multipart/form-data")
    assert client.get("/branding/logo").status_code == 404


def test_only_admins_open_the_settings(client, auth):
    auth.login("ops")
    assert client.get(SETTINGS).status_code == 403
    assert client.post(SETTINGS, data=_form()).status_code == 403
