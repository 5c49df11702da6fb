"""Sending over SMTP to a real server on loopback, and the failures the portal reports."""

from __future__ import annotations

import pytest

from portal.core.config import Settings
from portal.mail.sender import MailError, compose, send
from tests.support.mail import body_of, mailing
from tests.wizard.conftest import closed_port

__all__ = ["closed_port"]


def test_a_message_arrives_at_the_smtp_server_whole(mail_sink):
    settings = mailing(Settings(env="testing"), mail_sink)
    send(settings, compose(settings, "asha@merchant.example.com", "Hello ₹ world",
                           "Line one\nLine two — with a dash\n"))
    [message] = mail_sink.messages()
    assert message["To"] == "asha@merchant.example.com"
    assert message["Subject"] == "Hello ₹ world"
    assert message["From"] == settings.mail_from
    assert message["Date"].datetime.tzinfo is not None
    assert body_of(message) == "Line one\nLine two — with a dash\n"


def test_an_unreachable_server_is_a_mail_error(closed_port):
    port = int(closed_port.rsplit(":", 1)[1])
    settings = Settings(env="testing", mail_port=port, mail_timeout=2.0)
    with pytest.raises(MailError, match="could not be sent"):
        send(settings, compose(settings, "a@example.com", "s", "b"))


@pytest.mark.parametrize("changes", [{"mail_security": "starttls"},
                                     {"mail_username": "portal", "mail_password": "pw"}])
def test_starttls_or_login_the_server_does_not_offer_is_refused(mail_sink, changes):
    """The portal never falls back to plain text or no login when told to use them."""
    settings = mailing(Settings(env="testing"), mail_sink).with_changes(**changes)
    with pytest.raises(MailError):
        send(settings, compose(settings, "a@example.com", "s", "b"))
    assert mail_sink.messages() == []


def test_the_sink_keeps_each_message_as_an_eml_file(mail_sink):
    settings = mailing(Settings(env="testing"), mail_sink)
    for n in range(2):
        send(settings, compose(settings, "a@example.com", f"Message {n}", "b"))
    files = sorted(mail_sink.folder.glob("*.eml"))
    assert len(files) == 2
    assert [m["Subject"] for m in mail_sink.messages()] == ["Message 0", "Message 1"]
