"""``flask reminders send``: email the merchants due a verification reminder."""

from __future__ import annotations

import click
from flask.cli import AppGroup

from portal.core.config import current_settings
from portal.domain.merchant_mail.reminders import send_reminders

reminders_cli = AppGroup("reminders", help="Remind merchants to complete their verification.")


@reminders_cli.command("send")
def send() -> None:
    """Send today's reminders now (the workers send them every hour by themselves)."""
    click.echo(send_reminders(current_settings()).summary())
