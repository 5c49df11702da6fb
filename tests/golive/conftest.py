"""The go-live tests' portal: sending mail to a real SMTP sink on loopback."""

from __future__ import annotations

import pytest

from portal.core.config import Settings
from portal.core.mail.sink import MailSink
from tests.support.mail import mail_sink, mailing

__all__ = ["mail_sink"]

#: The portal's public address in these tests.
PORTAL = "https://portal.test"


@pytest.fixture
def settings(settings: Settings, mail_sink: MailSink) -> Settings:
    """The suite's settings, mail to the sink, the sandbox partner's MID, and an https://
    portal address (the gateway registers only HTTPS webhooks off loopback)."""
    return mailing(settings, mail_sink).with_changes(
        partner_mid="partner-test", partner_name="Asha Payments", portal_url=PORTAL)
