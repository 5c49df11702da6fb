"""What the bulk page offers to fill a file: a template and the codes its columns accept.

The template is the header line (every column, in the order the checks read them) and one
example row, the sandbox's test data of each step read back through the columns. The codes file
is a second sheet: for each column that takes a code, every code with its meaning in words
(entity types, business categories by name, products, fee types, account types, documents).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import Any

from portal.core.label_tables import Kind as Words
from portal.core.labels import label
from portal.core.spreadsheet_cells import safe_cell
from portal.domain.onboarding import scenarios
from portal.features.bulk.columns import (
    AADHAR_SUFFIX,
    COLUMNS,
    DISPLAY_NAME,
    FORM_STEPS,
    LIST_SEPARATOR,
    Column,
    Kind,
    wildcard,
)
from portal.gateway.onboarding.answers import Category
from portal.gateway.onboarding.vocabulary import AccountType, EntityType, FeeType, Product

#: The codes file's header.
CODES_HEADER = ("column", "code", "meaning")


def template_csv() -> str:
    """The header line and one example row."""
    forms = {step: scenarios.form_data(scenarios.HAPPY, step) for step in FORM_STEPS}
    forms["create"][DISPLAY_NAME] = forms["business"].get("tradeName", "")
    example = [_example(c, forms) for c in COLUMNS]
    return _csv([[c.name for c in COLUMNS], example], safe=False)  # our own values


def codes_csv(categories: list[Category] | None) -> str:
    """Every code a column accepts, with its meaning; ``None``: the gateway's categories could
    not be read (the file says so)."""
    return _csv([CODES_HEADER, *_codes(categories)], safe=True)  # names from the gateway


def _codes(categories: list[Category] | None) -> Iterator[tuple[str, str, str]]:
    yield from _table("entityType", EntityType, Words.ENTITY_TYPE)
    if categories is None:
        yield ("natureOfBusiness", "", "The gateway's list of business categories could not be "
               "read just now; download this file again later")
    for category in categories or []:
        for sub in category.subcategories:
            yield ("natureOfBusiness", sub.categoryCode,
                   f"{category.categoryName}: {sub.categoryName}")
    products = _named(lambda c: c.kind is Kind.LIST)
    for product in Product:
        yield (products, product.value, f"{label(product.value, Words.PRODUCT)} (several: "
               f"separate them with {LIST_SEPARATOR})")
    yield from _table(_named(lambda c: c.path[-1] == "feeType"), FeeType, Words.FEE_TYPE)
    yield from _table(_named(lambda c: c.path[-1] == "accountType"), AccountType,
                      Words.ACCOUNT_TYPE)
    flags = _named(lambda c: c.kind is Kind.FLAG)
    yield (flags, "true", "Yes (also yes, y or 1)")
    yield (flags, "false", "No (also no, n, 0 or empty)")
    for column in COLUMNS:
        if column.kind is Kind.FILE and not column.name.endswith(AADHAR_SUFFIX):
            yield (column.name, "", "The file's name in the ZIP of documents: "
                   + label(column.path[0], Words.DOCUMENT))
    yield (_named(lambda c: c.name.endswith(AADHAR_SUFFIX)), "",
           "The file's name in the ZIP of documents: the owner's Aadhaar")


def _table(column: str, codes: Iterable[str], words: Words) -> Iterator[tuple[str, str, str]]:
    for code in codes:
        yield (column, str(code), label(str(code), words))


def _named(which: Any) -> str:
    """One name for the columns ``which`` selects (``owner*_aadhar``)."""
    names = [c.name for c in COLUMNS if which(c)]
    joined = wildcard(names)
    return joined if joined.strip("*_") else ", ".join(names)


def _example(column: Column, forms: dict[str, dict[str, Any]]) -> str:
    """The example row's cell: the step's value at the column's path; an owner's Aadhaar
    named after the owner (a file in the ZIP)."""
    if column.kind is Kind.FILE:
        owner = _value(column.path, forms["owners"]) if column.path[0] == "owners" else None
        name = str((owner or {}).get("name") or "").lower().replace(" ", "-")
        return f"docs/{name}-aadhaar.pdf" if name else ""
    value = _value(column.path, forms.get(column.step, {}))
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return LIST_SEPARATOR.join(str(item) for item in value)
    return "" if value is None else str(value)


def _value(path: tuple[str | int, ...], data: dict[str, Any]) -> Any:
    node: Any = data
    for key in path:
        if isinstance(node, dict):
            node = node.get(key)
        elif isinstance(node, list) and isinstance(key, int) and key < len(node):
            node = node[key]
        else:
            return None
    return node


def _csv(rows: Iterable[Iterable[str]], *, safe: bool) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerows([safe_cell(cell) if safe else cell for cell in row] for row in rows)
    return out.getvalue()
