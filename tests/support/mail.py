"""A real SMTP server on loopback for tests: the portal's sink, reading what arrived."""

from __future__ import annotations

import re
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from portal.core.config import Settings
from portal.core.mail.sink import MailSink

#: The portal address tests put in emailed links: the test client answers for it.
PORTAL_URL = "http://portal.test"
LINK = re.compile(r"https?://\S+")


@pytest.fixture
def mail_sink(tmp_path: Path) -> Iterator[MailSink]:
    """An aiosmtpd server on a free loopback port, keeping each message as a .eml file."""
    with MailSink(tmp_path / "mail") as sink:
        yield sink


def mailing(settings: Settings, sink: MailSink) -> Settings:
    """``settings`` sending email to ``sink`` and building links on PORTAL_URL."""
    return settings.with_changes(mail_host=sink.host, mail_port=sink.port, mail_timeout=5.0,
                                 portal_url=PORTAL_URL)


def body_of(message: EmailMessage) -> str:
    """The message's plain-text body."""
    part = message.get_body(("plain",))
    assert part is not None, "no text body"
    return part.get_content()


def link_in(message: EmailMessage) -> str:
    """The path and query of the one portal link in the message (to open with a test client)."""
    found = [url for url in LINK.findall(body_of(message)) if url.startswith(PORTAL_URL)]
    assert len(found) == 1, body_of(message)
    parts = urlsplit(found[0])
    return f"{parts.path}?{parts.query}"
