"""Fixtures of the requirements tests: a signed-in browser, merchants created through the
pages, and email to a loopback server."""

from __future__ import annotations

import pytest

from portal.core.config import Settings
from tests.support.mail import mail_sink, mailing
from tests.wizard.support import browser, closed_port, new_merchant

#: The support modules' fixtures this folder's tests use.
__all__ = ["browser", "closed_port", "mail_sink", "new_merchant"]


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The suite's settings, mailing to the loopback sink."""
    return mailing(settings, mail_sink)
