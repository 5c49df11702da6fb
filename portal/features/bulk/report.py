"""The per-row, per-column error report: one entry per problem, as a table and as CSV."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from portal.core.spreadsheet_cells import export_cell

#: The report's CSV header.
HEADER = ("row", "column", "message")
#: The header line's row number; data rows start at 2, as a spreadsheet numbers them.
HEADER_ROW = 1


@dataclass(frozen=True)
class RowError:
    """One problem: the spreadsheet row, the CSV column ('' = the whole row) and the message."""

    row: int
    column: str
    message: str

    def as_json(self) -> dict[str, object]:
        """The entry as the progress endpoint and the job record carry it."""
        return {"row": self.row, "column": self.column, "message": self.message}


def errors_csv(errors: list[RowError]) -> str:
    """The report as CSV: row, column, message."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(HEADER)
    writer.writerows((e.row, export_cell(e.column), export_cell(e.message)) for e in errors)
    return out.getvalue()


def errors_text(errors: list[RowError]) -> str:
    """The report as lines for a terminal."""
    return "\n".join(f"row {e.row}, {e.column or '(row)'}: {e.message}" for e in errors)
