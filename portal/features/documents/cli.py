"""``flask documents purge``: delete the stored files retention no longer allows;
``flask documents move-to-storage``: move the upload folder's files into the object store."""

from __future__ import annotations

import click
from flask.cli import AppGroup

from portal.core import clock
from portal.core.config import current_settings
from portal.core.storage.current import current_store, object_store
from portal.core.storage.folder import FolderStore
from portal.domain.documents.moving import Outcome, move_all
from portal.domain.documents.retention import delete_expired_files

documents_cli = AppGroup("documents", help="Manage stored documents.")


@documents_cli.command("purge")
def purge() -> None:
    """Delete document files kept past DOCUMENT_RETENTION_DAYS after a final status."""
    settings = current_settings()
    if settings.document_retention_days <= 0:
        click.echo("DOCUMENT_RETENTION_DAYS is 0: every document file is kept.")
        return
    count = delete_expired_files(current_store(), settings.document_retention_days,
                                 clock.utcnow())
    click.echo(f"Deleted {count} document file(s) kept more than "
               f"{settings.document_retention_days} days after a final status; "
               "their records stay.")


@documents_cli.command("move-to-storage")
def move_to_storage() -> None:
    """Move the files of UPLOAD_FOLDER into the object store DOCUMENT_STORAGE names: each copy
    verified by SHA-256 before its file is deleted; run it again to resume."""
    settings = current_settings()
    if not settings.document_storage:
        raise click.ClickException("DOCUMENT_STORAGE is empty: name the bucket to move the "
                                   "documents into (s3://bucket/prefix), then run this again.")
    target = object_store(settings)
    click.echo(f"Moving the files of {settings.upload_folder} into "
               f"{settings.document_storage}; objects are {target.encryption}.")

    def heard(name: str, outcome: Outcome) -> None:
        if outcome is Outcome.MOVED:
            click.echo(f"moved {name}")

    report = move_all(FolderStore(settings.upload_folder), target, heard)
    for name, reason in report.kept.items():
        click.echo(f"{name}: {reason}", err=True)
    click.echo(f"Moved {report.moved} file(s), each verified by SHA-256 before it was deleted; "
               f"{len(report.kept)} kept in the folder.")
    if report.kept:
        raise click.exceptions.Exit(1)
