"""Reading the bulk CSV: each row becomes the wizard's form data for every step, and files."""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from portal.core.typed_text import typed_problem
from portal.features.bulk.columns import (
    BY_NAME,
    COLUMNS,
    EXTERNAL_ID,
    FIXED,
    FORM_STEPS,
    LIST_SEPARATOR,
    MAX_OWNERS,
    Column,
    Kind,
    Path,
)
from portal.features.bulk.report import HEADER_ROW, RowError
from portal.gateway.onboarding.vocabulary import Product
from portal.web.body_forms import typed_value

#: The most rows one file may hold.
MAX_ROWS = 10_000
#: The longest cell Python's CSV reader takes (``csv.field_size_limit()``, a setting of the
#: whole process that the portal leaves as it is); no column of the file needs a tenth of it.
MAX_CELL = 131_072
TOO_LONG = (f"This cell holds more than {MAX_CELL:,} characters; no column takes that much. "
            "The rows after it were not read: shorten it and upload the file again.")
UNREADABLE_ROW = ("This row cannot be read as CSV (check its quotes). The rows after it were "
                  "not read: correct it and upload the file again.")
_TRUE = frozenset({"true", "yes", "y", "1"})
_FALSE = frozenset({"false", "no", "n", "0", ""})


@dataclass(frozen=True)
class DocumentCell:
    """A file named in a row: a document type, or the Aadhaar of owner number ``owner``.

    ``path`` is where the file is (as typed, or its staged copy's name); ``name`` the name it
    is sent under when that differs (the name the CSV gave a staged copy).
    """

    column: str
    path: str
    doc_type: str | None = None
    owner: int | None = None
    name: str = ""

    def as_json(self) -> dict[str, Any]:
        """The cell as an import's row stores it."""
        return {"column": self.column, "path": self.path, "docType": self.doc_type,
                "owner": self.owner, "name": self.name}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DocumentCell:
        """A cell stored by ``as_json``."""
        return cls(data["column"], data["path"], data.get("docType"), data.get("owner"),
                   data.get("name", ""))


@dataclass
class BulkRow:
    """One merchant of the file: its form data per step and the files it names."""

    number: int
    forms: dict[str, dict[str, Any]]
    documents: list[DocumentCell] = field(default_factory=list)

    @property
    def external_id(self) -> str:
        """The row's externalOnboardingId as typed (stripped)."""
        return str(self.forms["create"].get(EXTERNAL_ID) or "").strip()

    def owner_pan(self, owner: int) -> str:
        """The PAN typed for owner number ``owner`` (0-based), upper-cased; '' if none."""
        owners = self.forms["owners"].get("owners") or []
        return str(owners[owner].get("pan") or "").strip().upper() if owner < len(owners) else ""


@dataclass
class ParsedFile:
    """The rows read and the problems found while reading (header, cells)."""

    rows: list[BulkRow] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)


def parse_csv(content: bytes) -> ParsedFile:
    """Read a UTF-8 CSV (a BOM is fine) with a header line of known column names."""
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return ParsedFile(errors=[RowError(HEADER_ROW, "", "The file is not UTF-8 text")])
    lines = _Lines(text)
    reader = csv.reader(lines)
    records = _records(reader, lines)
    first = next(records, (HEADER_ROW, []))
    if isinstance(first[1], RowError):
        return ParsedFile(errors=[RowError(HEADER_ROW, "", first[1].message)])
    header = [name.strip() for name in first[1]]
    parsed = ParsedFile(errors=_header_errors(header))
    if parsed.errors:
        return parsed
    for number, cells in records:
        if isinstance(cells, RowError):
            parsed.errors.append(_in_column(cells, header))
            break
        if not any(cell.strip() for cell in cells):
            continue
        if len(parsed.rows) == MAX_ROWS:
            parsed.errors.append(RowError(number, "", f"A file holds at most {MAX_ROWS} rows"))
            break
        if len(cells) > len(header):
            parsed.errors.append(RowError(number, "", "More cells than the header has columns"))
            continue
        row, errors = read_row(number, dict(zip(header, cells, strict=False)))
        parsed.rows.append(row)
        parsed.errors += errors
    return parsed


class _Lines:
    """The file's lines for the CSV reader, keeping those of the record being read, so a
    record the reader refuses can be looked at again."""

    def __init__(self, text: str) -> None:
        self._lines = iter(io.StringIO(text, newline=""))
        self.record: list[str] = []

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        line = next(self._lines)
        self.record.append(line)
        return line


def _records(reader: Any, lines: _Lines) -> Iterator[tuple[int, list[str] | RowError]]:
    """Each record with its row number; a record the reader refuses (a cell over MAX_CELL, a
    stray quote) ends the file as a RowError (its column, a cell's index, told as ``column``)."""
    for number in itertools.count(HEADER_ROW):
        lines.record.clear()
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error:
            index = _long_cell("".join(lines.record))
            yield number, (RowError(number, str(index), TOO_LONG) if index is not None
                           else RowError(number, "", UNREADABLE_ROW))
            return
        yield number, cells


def _long_cell(record: str) -> int | None:
    """The index of the first cell of ``record`` (CSV text, quotes doubled inside quoted
    cells) longer than MAX_CELL, or None."""
    index, length, quoted = 0, 0, False
    for char in record:
        if char == '"':
            quoted = not quoted
        elif char == "," and not quoted:
            index, length = index + 1, 0
            continue
        length += 1
        if length > MAX_CELL:
            return index
    return None


def _in_column(error: RowError, header: list[str]) -> RowError:
    """``error`` with its cell's index (if any) replaced by the header's name for it."""
    if error.column.isdigit():
        index = int(error.column)
        return RowError(error.row, header[index] if index < len(header) else "", error.message)
    return error


def _header_errors(header: list[str]) -> list[RowError]:
    if not any(header):
        return [RowError(HEADER_ROW, "", "The file is empty; the first line names the columns")]
    errors = [RowError(HEADER_ROW, name, "Unknown column") for name in header
              if name not in BY_NAME]
    errors += [RowError(HEADER_ROW, name, "This column appears twice")
               for name in sorted({n for n in header if header.count(n) > 1})]
    if EXTERNAL_ID not in header:
        errors.append(RowError(HEADER_ROW, EXTERNAL_ID, "Every file needs this column"))
    return errors


def read_row(number: int, cells: dict[str, str]) -> tuple[BulkRow, list[RowError]]:
    """One row's form data per step (as the wizard stores drafts) and its unreadable cells."""
    forms: dict[str, dict[str, Any]] = {step: {} for step in FORM_STEPS}
    for step, values in FIXED.items():
        for path, value in values.items():
            _put(forms[step], path, value)
    owners = _owner_count(cells)
    forms["owners"]["owners"] = [{} for _ in range(owners)]
    row, errors = BulkRow(number, forms), []
    for column in COLUMNS:
        raw = (cells.get(column.name) or "").strip()
        problem = typed_problem(raw, single_line=True)  # every column is a one-line field's
        if problem:  # the rule of every typed value (``portal.web.form_base``); none of it is kept
            errors.append(RowError(number, column.name, problem))
            raw = ""
        if column.kind is Kind.FILE:
            if raw:
                row.documents.append(_document(column, raw))
        elif column.step != "owners" or int(column.path[1]) < owners:
            value, message = _read(column, raw)
            _put(forms[column.step], column.path, value)
            if message:
                errors.append(RowError(number, column.name, message))
    return row, errors


def _owner_count(cells: dict[str, str]) -> int:
    """Owner groups up to the last one with anything typed (blank groups before it count)."""
    filled = [n for n in range(MAX_OWNERS)
              if any((cells.get(c.name) or "").strip() for c in COLUMNS
                     if c.step == "owners" and c.path[1] == n)]
    return max(filled) + 1 if filled else 0


def _read(column: Column, raw: str) -> tuple[Any, str]:
    """A cell's value for the form data, and a message when it cannot be read."""
    if column.kind is Kind.FLAG:
        if raw.lower() in _TRUE | _FALSE:
            return raw.lower() in _TRUE, ""
        return False, "Use true or false"
    if column.kind is Kind.LIST:
        items = [item.strip() for item in raw.split(LIST_SEPARATOR) if item.strip()]
        unknown = [item for item in items if item not in Product.__members__]
        message = (f"Unknown: {', '.join(unknown)} (use {', '.join(Product)}, separated by "
                   f"'{LIST_SEPARATOR}')") if unknown else ""
        return items, message
    return typed_value(str(column.path[-1]), raw), ""


def _document(column: Column, raw: str) -> DocumentCell:
    if column.path[0] == "owners":
        return DocumentCell(column.name, raw, owner=int(column.path[1]))
    return DocumentCell(column.name, raw, doc_type=str(column.path[0]))


def _put(data: dict[str, Any], path: Path, value: Any) -> None:
    """Set ``value`` at ``path``; an int key is a position in a list of dicts."""
    node: Any = data
    for key, following in itertools.pairwise(path):
        if isinstance(node, list):
            assert isinstance(key, int)
            node.extend({} for _ in range(key + 1 - len(node)))
            node = node[key]
        else:
            node = node.setdefault(key, [] if isinstance(following, int) else {})
    node[path[-1]] = value

