"""The team tests send real email to an SMTP server on loopback."""

from __future__ import annotations

import pytest

from portal.core.config import Settings
from tests.support.mail import mail_sink, mailing

__all__ = ["mail_sink"]


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The suite's settings, mailing to the loopback sink."""
    return mailing(settings, mail_sink)
