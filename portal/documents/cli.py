"""``flask documents purge``: delete the stored files retention no longer allows."""

from __future__ import annotations

import click
from flask.cli import AppGroup

from portal.core import clock
from portal.core.config import current_settings
from portal.documents.retention import delete_expired_files

documents_cli = AppGroup("documents", help="Manage stored documents.")


@documents_cli.command("purge")
def purge() -> None:
    """Delete document files kept past DOCUMENT_RETENTION_DAYS after a final status."""
    settings = current_settings()
    if settings.document_retention_days <= 0:
        click.echo("DOCUMENT_RETENTION_DAYS is 0: every document file is kept.")
        return
    count = delete_expired_files(settings.upload_folder, settings.document_retention_days,
                                 clock.utcnow())
    click.echo(f"Deleted {count} document file(s) kept more than "
               f"{settings.document_retention_days} days after a final status; "
               "their records stay.")
