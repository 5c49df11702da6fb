"""The portal's ``flask`` commands: ``flask db upgrade``, ``flask users ...`` and the others."""

from __future__ import annotations

import click
from flask import Flask
from flask.cli import AppGroup

from portal.auth.cli import users_cli
from portal.bulk.cli import merchants_cli
from portal.config import current_settings
from portal.merchant_mail.cli import reminders_cli
from portal.migrate import upgrade
from portal.payments.cli import payments_cli
from portal.sync import sync_command

db_cli = AppGroup("db", help="Manage the database schema.")


@db_cli.command("upgrade")
@click.option("--revision", default="head", show_default=True)
def db_upgrade(revision: str) -> None:
    """Migrate the configured database to ``revision`` with Alembic."""
    upgrade(current_settings().database_url, revision)
    click.echo(f"Database migrated to {revision}.")


def register_commands(app: Flask) -> None:
    """Add the portal's command groups to ``flask``."""
    app.cli.add_command(db_cli)
    app.cli.add_command(users_cli)
    app.cli.add_command(sync_command)
    app.cli.add_command(merchants_cli)
    app.cli.add_command(payments_cli)
    app.cli.add_command(reminders_cli)
