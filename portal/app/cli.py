"""The portal's ``flask`` commands: ``db upgrade``, ``keys rotate``, ``users ...``, ``gateway
webhooks ...``, ``setup ...`` and the others registered below."""

from __future__ import annotations

import click
from flask import Flask
from flask.cli import AppGroup

from portal.app.setup.cli import setup_cli
from portal.app.worker.cli import worker_command
from portal.app.worker.sync import sync_command
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.encryption import CREDENTIALS_VARIABLE, current_cipher, multi_fernet
from portal.core.key_rotation import rotate
from portal.core.migrate import upgrade
from portal.features.bulk.cli import merchants_cli
from portal.features.documents.cli import documents_cli
from portal.features.merchant_mail.cli import reminders_cli
from portal.features.payments.cli import payments_cli
from portal.features.webhooks.cli import gateway_cli
from portal.web.auth.cli import users_cli

db_cli = AppGroup("db", help="Manage the database schema.")


@db_cli.command("upgrade")
@click.option("--revision", default="head", show_default=True)
def db_upgrade(revision: str) -> None:
    """Migrate the configured database to ``revision`` with Alembic."""
    settings = current_settings()
    upgrade(settings.database_url, revision, settings)
    click.echo(f"Database migrated to {revision}.")


keys_cli = AppGroup("keys", help="Manage the encryption keys of stored data.")


@keys_cli.command("rotate")
def keys_rotate() -> None:
    """Re-encrypt stored KYC data and private keys under the first (newest) key of each list,
    and recompute the PAN search index; afterwards the older keys can be removed."""
    settings = current_settings()
    credentials = multi_fernet(settings.credentials_key, CREDENTIALS_VARIABLE, "private keys") \
        if settings.credentials_key else None
    with db.engine().begin() as connection:
        done = rotate(connection, current_cipher(), credentials)
    click.echo(f"Re-encrypted under the newest keys: {done.kyc_values} KYC values, "
               f"{done.private_keys} private keys. The older keys may now be removed.")


def register_commands(app: Flask) -> None:
    """Add the portal's command groups to ``flask``."""
    app.cli.add_command(db_cli)
    app.cli.add_command(users_cli)
    app.cli.add_command(sync_command)
    app.cli.add_command(worker_command)
    app.cli.add_command(merchants_cli)
    app.cli.add_command(payments_cli)
    app.cli.add_command(keys_cli)
    app.cli.add_command(gateway_cli)
    app.cli.add_command(reminders_cli)
    app.cli.add_command(documents_cli)
    app.cli.add_command(setup_cli)
