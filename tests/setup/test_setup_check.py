"""``flask setup check``: the go-live checks on the command line."""

from __future__ import annotations

import pytest

from portal.core.config import Settings
from portal.core.mail.sink import MailSink
from tests.support.mail import mail_sink, mailing

__all__ = ["mail_sink"]


@pytest.fixture
def settings(settings: Settings, mail_sink: MailSink) -> Settings:
    """Mail to the sink, the sandbox partner's MID, an https:// portal behind one proxy."""
    return mailing(settings, mail_sink).with_changes(
        partner_mid="partner-test", partner_name="Asha Payments",
        portal_url="https://portal.test", trusted_proxies=1)


def test_it_prints_each_item_and_fails_while_one_is_to_do(runner, mail_sink):
    result = runner.invoke(args=["setup", "check", "--mail-to", "ops-lead@example.com"])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith("[ok]   The gateway takes the partner key and signature: ")
    assert lines[1].startswith("[ok]   The mail server accepts the portal's email: ")
    assert lines[2].startswith("[ok]   HTTPS is in front of the portal: ")
    assert lines[3] == ("[todo] The onboarding webhook is registered: "
                        "https://portal.test/webhooks/onboarding is not registered: register "
                        "it on the Go-live checklist page or with flask --app app gateway "
                        "webhooks register https://portal.test/webhooks/onboarding.")
    assert "  Onboarding webhook URL: https://portal.test/webhooks/onboarding" in lines
    assert mail_sink.messages()[0]["To"] == "ops-lead@example.com"


def test_it_passes_once_the_webhook_is_registered(runner):
    assert runner.invoke(args=["gateway", "webhooks", "register",
                               "https://portal.test/webhooks/onboarding"]).exit_code == 0
    result = runner.invoke(args=["setup", "check"])
    assert result.exit_code == 0, result.output
    assert "[todo]" not in result.output
