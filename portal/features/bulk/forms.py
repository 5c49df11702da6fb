"""The upload form of the bulk import page."""

from __future__ import annotations

from flask_wtf.file import FileAllowed, FileField, FileRequired
from wtforms import BooleanField

from portal.web.form_base import PortalForm


class ImportForm(PortalForm):
    """A CSV of merchants, a ZIP of the documents it names, and whether to import the valid
    rows of a file with problems."""

    file = FileField("CSV file", validators=[FileRequired("Choose a CSV file."),
                                             FileAllowed(["csv"], "Upload a .csv file.")],
                     description="One merchant per row, with the template's columns.")
    documents = FileField(
        "Documents (ZIP, optional)",
        validators=[FileAllowed(["zip"], "Upload the documents as one .zip file.")],
        description="The files the CSV names in its doc_ and owner Aadhaar columns, in one ZIP "
                    "(docs/gst.pdf in the CSV is docs/gst.pdf in the ZIP). PDF, JPEG or PNG. "
                    "Without it, documents are left for each merchant's documents step.")
    skip_invalid = BooleanField("Import the valid rows even when others have problems")


class CancelForm(PortalForm):
    """The Cancel button of a running import (its CSRF token)."""
