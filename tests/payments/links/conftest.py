"""Payment link tests: an approved merchant with credentials, email to a loopback SMTP server,
the customer on a test client of their own (never signed in)."""

from __future__ import annotations

import pytest

from portal.core.config import Settings
from tests.support.mail import mail_sink, mailing

__all__ = ["mail_sink"]


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The payments suite's settings, mailing to the loopback sink, links built on its
    PORTAL_URL."""
    return mailing(settings, mail_sink).with_changes(partner_name="Acme Payments")


