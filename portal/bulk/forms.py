"""The upload form of the bulk import page."""

from __future__ import annotations

from flask_wtf.file import FileAllowed, FileField, FileRequired
from wtforms import BooleanField

from portal.form_base import PortalForm


class ImportForm(PortalForm):
    """A CSV of merchants, and whether to import the valid rows of a file with problems."""

    file = FileField("CSV file", validators=[FileRequired("Choose a CSV file."),
                                             FileAllowed(["csv"], "Upload a .csv file.")],
                     description="One merchant per row; the columns are listed in the README.")
    skip_invalid = BooleanField("Import the valid rows even when others have problems")


class CancelForm(PortalForm):
    """The Cancel button of a running import (its CSRF token)."""
