"""The upload form of the bulk import page."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileAllowed, FileField, FileRequired
from wtforms import BooleanField, IntegerField
from wtforms.validators import NumberRange

from portal.bulk.runner import DEFAULT_CONCURRENCY


class ImportForm(FlaskForm):
    """A CSV of merchants, and how to run it."""

    file = FileField("CSV file", validators=[FileRequired("Choose a CSV file."),
                                             FileAllowed(["csv"], "Upload a .csv file.")],
                     description="One merchant per row; the columns are listed in the README.")
    skip_invalid = BooleanField("Import the valid rows even when others have problems")
    concurrency = IntegerField("Merchants at a time", default=DEFAULT_CONCURRENCY,
                               validators=[NumberRange(1, 16)],
                               description="How many merchants are onboarded at once (1 to 16).")
