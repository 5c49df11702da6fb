"""``flask merchants import FILE.csv``: validate the whole file, then onboard every row."""

from __future__ import annotations

from pathlib import Path

import click
from flask import current_app
from flask.cli import AppGroup

from portal.core.config import current_settings
from portal.core.config_fields import MAX_BULK_CONCURRENCY
from portal.core.db import db
from portal.core.storage.folder import FolderStore
from portal.domain.audit.service import Actor, record
from portal.features.bulk.onboard import RowState
from portal.features.bulk.report import errors_text
from portal.features.bulk.runner import run_rows
from portal.features.bulk.validation import Files, check_file

merchants_cli = AppGroup("merchants", help="Onboard merchants in bulk.")
ACTOR = Actor("cli")


@merchants_cli.command("import")
@click.argument("csv_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--concurrency", type=click.IntRange(1, MAX_BULK_CONCURRENCY),
              help="Rows onboarded at the same time.  [default: BULK_CONCURRENCY]")
@click.option("--dry-run", is_flag=True, help="Validate the file; send nothing.")
@click.option("--skip-invalid", is_flag=True,
              help="Onboard the valid rows even when others are invalid.")
def import_merchants(csv_file: Path, concurrency: int | None, dry_run: bool,
                     skip_invalid: bool) -> None:
    """Onboard the merchants of a CSV; documents are paths relative to the CSV.

    Re-running the same file resumes: a merchant is never created twice.
    """
    checked = check_file(csv_file.read_bytes(),
                         Files(csv_file.parent, current_settings().upload_max_bytes))
    if checked.errors:
        click.echo(errors_text(checked.errors), err=True)
    rows = checked.valid_rows()
    if checked.unreadable or (checked.errors and not skip_invalid):
        raise click.ClickException(
            f"{len(checked.errors)} problems in {checked.invalid_count} rows; nothing was sent."
            + ("" if checked.unreadable else " Fix them, or use --skip-invalid."))
    if dry_run:
        click.echo(f"{len(rows)} of {len(checked.rows)} rows are valid; nothing was sent "
                   "(dry run).")
        return
    with click.progressbar(length=len(rows), label="Onboarding", show_pos=True) as bar:
        summary = run_rows(current_app._get_current_object(),  # type: ignore[attr-defined]
                           rows, concurrency=concurrency or current_settings().bulk_concurrency,
                           actor=ACTOR, files=FolderStore(csv_file.parent),
                           on_row=lambda _outcome: bar.update(1))
    record("bulk.import", actor=ACTOR,
           detail={"file": csv_file.name, "rows": len(rows), **summary.counts()})
    db.session.commit()
    click.echo("\n".join(summary.lines()))
    if summary.count(RowState.FAILED) or summary.count(RowState.OUTCOME_UNKNOWN):
        raise click.exceptions.Exit(1)
