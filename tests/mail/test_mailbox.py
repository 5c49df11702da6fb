"""The development mailbox page: admins only, sandbox only, newest message first."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from portal.core.config import SETTINGS_EXTENSION
from portal.core.mail.sender import compose, send
from tests.support.mail import mailing


@pytest.fixture
def sink_app(app, mail_sink):
    """The portal reading the loopback sink's folder."""
    app.extensions[SETTINGS_EXTENSION] = mailing(
        app.extensions[SETTINGS_EXTENSION], mail_sink).with_changes(
        mail_sink_folder=str(mail_sink.folder))
    return app


def test_admins_read_the_sent_mail_newest_first(sink_app, client, auth):
    settings = sink_app.extensions[SETTINGS_EXTENSION]
    for n in (1, 2):
        send(settings, compose(settings, f"to{n}@example.com", f"Message {n}", f"Body {n}\n"))
    auth.login("admin")
    page = BeautifulSoup(client.get("/admin/mailbox").data, "html.parser")
    assert [h.get_text() for h in page.select(".sent-mail h2")] == ["Message 2", "Message 1"]
    assert page.select_one(".sent-mail pre").get_text() == "Body 2\n"
    assert "to2@example.com" in page.select_one(".sent-mail .field__help").get_text()


def test_ops_are_refused_and_outside_the_sandbox_there_is_no_mailbox(sink_app, client, auth):
    auth.login("ops")
    assert client.get("/admin/mailbox").status_code == 403
    auth.logout()
    auth.login("admin")
    sink_app.extensions[SETTINGS_EXTENSION] = sink_app.extensions[
        SETTINGS_EXTENSION].with_changes(gateway_is_sandbox=False)
    assert client.get("/admin/mailbox").status_code == 404


def test_only_this_portals_mail_is_shown(sink_app, client, auth):
    settings = sink_app.extensions[SETTINGS_EXTENSION]
    other = settings.with_changes(portal_url="http://127.0.0.1:5050")
    send(settings, compose(settings, "mine@example.com", "Mine", "For this portal\n"))
    send(other, compose(other, "theirs@example.com", "Theirs", "For the other portal\n"))
    auth.login("admin")
    page = BeautifulSoup(client.get("/admin/mailbox").data, "html.parser")
    assert [h.get_text() for h in page.select(".sent-mail h2")] == ["Mine"]
    assert settings.portal_url in page.select_one("main p").get_text()


def test_the_addresses_in_a_message_can_be_clicked_and_nothing_else_is_markup(sink_app, client,
                                                                            auth):
    settings = sink_app.extensions[SETTINGS_EXTENSION]
    body = ("Choose your password here:\n\nhttp://127.0.0.1:5000/team/welcome?token=a.b-c\n\n"
            "<b>not bold</b> (see https://merchant.example/help).\n")
    send(settings, compose(settings, "new@example.com", "Welcome", body))
    auth.login("admin")
    page = BeautifulSoup(client.get("/admin/mailbox").data, "html.parser")
    links = [(a["href"], a.get_text()) for a in page.select(".sent-mail pre a")]
    assert links == [("http://127.0.0.1:5000/team/welcome?token=a.b-c",
                      "http://127.0.0.1:5000/team/welcome?token=a.b-c"),
                     ("https://merchant.example/help", "https://merchant.example/help")]
    assert page.select_one(".sent-mail pre b") is None
    assert page.select_one(".sent-mail pre").get_text() == body


def test_the_mailbox_is_its_own_place_in_the_menu(sink_app, client, auth):
    auth.login("admin")
    page = BeautifulSoup(client.get("/admin/mailbox").data, "html.parser")
    current = [a.get_text(strip=True) for a in page.select(".site-nav a[aria-current='page']")]
    assert current == ["Mailbox"]
    sink_app.extensions[SETTINGS_EXTENSION] = sink_app.extensions[
        SETTINGS_EXTENSION].with_changes(gateway_is_sandbox=False)
    page = BeautifulSoup(client.get("/admin/").data, "html.parser")
    assert "Mailbox" not in [a.get_text(strip=True) for a in page.select(".site-nav a")]
