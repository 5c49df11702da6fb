"""The team tests send real email to an SMTP server on loopback."""

from __future__ import annotations

import pytest

from portal.core.config import Settings
from tests.support.mail import mail_sink, mailing

__all__ = ["mail_sink"]


@pytest.fixture
def settings(settings: Settings, mail_sink, request: pytest.FixtureRequest) -> Settings:
    """The suite's settings, mailing to the loopback sink; ADMIN_CONFIRMATION_EMAIL is the
    module's ``CONFIRMER`` where it names one (the only admin's new admins are confirmed
    there), else empty."""
    return mailing(settings, mail_sink).with_changes(
        admin_confirmation_email=getattr(request.module, "CONFIRMER", ""))
