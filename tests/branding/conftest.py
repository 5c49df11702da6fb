"""Branding tests: a merchant waiting for its verification, mail to a loopback sink."""

from __future__ import annotations

import pytest

from portal.core.config import Settings
from tests.branding.support import PARTNER
from tests.support.mail import mail_sink, mailing
from tests.verification.support import onboard

__all__ = ["mail_sink"]


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The suite's settings, PARTNER_NAME set and mailing to the loopback sink."""
    return mailing(settings, mail_sink).with_changes(partner_name=PARTNER)


@pytest.fixture
def merchant_id(app, portal_clock) -> int:
    """A merchant at PENDING_VERIFICATION."""
    return onboard(app)
