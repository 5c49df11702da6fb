"""Fixtures of the change request tests: email to a loopback sink, the support's address set,
the portal's status read from the sandbox."""

from __future__ import annotations

import pytest

from portal.core.config import Settings
from tests.change_requests.support import SUPPORT, approved_merchant
from tests.support.mail import mail_sink, mailing
from tests.verification.support import portal_server

__all__ = ["mail_sink", "portal_server"]


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The suite's settings, mailing to the loopback sink, with the support's address."""
    return mailing(settings, mail_sink).with_changes(gateway_support_email=SUPPORT)


@pytest.fixture
def merchant_id(app, sandbox, portal_server) -> int:
    """A merchant the sandbox approved (its webhooks reach the served portal)."""
    return approved_merchant(app, sandbox)
