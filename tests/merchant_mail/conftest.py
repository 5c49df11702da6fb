"""Merchant mail tests: a merchant waiting for its verification, email to a loopback server."""

from __future__ import annotations

import pytest

from portal.core.config import Settings
from tests.support.mail import mail_sink, mailing
from tests.verification.support import onboard, portal_server

__all__ = ["mail_sink", "portal_server"]


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The suite's settings, mailing to the loopback sink."""
    return mailing(settings, mail_sink)


@pytest.fixture
def merchant_id(app, portal_clock) -> int:
    """A merchant at PENDING_VERIFICATION since the frozen clock's 'now'."""
    return onboard(app)
