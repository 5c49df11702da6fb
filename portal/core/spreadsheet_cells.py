"""CSV cells safe to open in a spreadsheet: every CSV export and report writes through here.
An export's cells hold what pages show: a PAN masked wherever it is (:func:`export_cell`)."""

from __future__ import annotations

import re

from portal.core.redaction import mask_pans

#: A formula starter (= + - @ tab CR) at the start of a cell, or after a separator a spreadsheet
#: may split on (comma, semicolon, tab) and any spaces: where a quote must go to defuse it.
_FORMULA_START = re.compile(r"(?:^|(?<=[,;\t]))( *)(?=[=+\-@\t\r])")


def safe_cell(value: object) -> str:
    """A CSV cell a spreadsheet will not run as a formula, whichever of comma, semicolon or tab
    it splits on: a quote before each formula starter that could begin a cell
    (``Acme;=2*3`` becomes ``Acme;'=2*3``)."""
    text = "" if value is None else str(value)
    return _FORMULA_START.sub(lambda m: m.group(1) + "'", text)


def export_cell(value: object) -> str:
    """A cell of an export of the portal's data: PANs masked as pages show them (in a document
    key too), then made :func:`safe_cell`."""
    return safe_cell(mask_pans("" if value is None else str(value)))
