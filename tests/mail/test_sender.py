"""Sending over SMTP to a real server on loopback, and the failures the portal reports."""

from __future__ import annotations

import pytest

from portal.core.config import Settings
from portal.core.mail.sender import MailError, UncomposableMail, compose, send
from tests.support.mail import body_of, mailing
from tests.wizard.support import closed_port

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


def test_every_header_is_on_one_line_whatever_the_names_hold(mail_sink):
    """A name stored before line breaks were refused still makes a mail: the composer folds
    every control character of a subject and a display name into one space."""
    settings = mailing(Settings(env="testing"), mail_sink).with_changes(
        mail_from="Partner\r\nPortal <portal@localhost>")
    send(settings, compose(settings, "asha@merchant.example.com",
                           "Chai\rPoint\r\n  asks\x00you\u2028to\tpay", "b"))
    [message] = mail_sink.messages()
    assert message["Subject"] == "Chai Point asks you to pay"
    assert message["From"] == "Partner Portal <portal@localhost>"


@pytest.mark.parametrize("to", ["asha@example.com\r\nBcc: spy@example.net", "Asha Rao",
                                "asha@example.com, spy@example.net", "asha@", ""])
def test_an_address_that_is_not_one_cannot_be_composed(to):
    settings = Settings(env="testing")
    with pytest.raises(UncomposableMail, match="the recipient's address is not a single"):
        compose(settings, to, "s", "b")
