"""Tables that stack on a phone: each cell carries its column's name, so a row read as a block
still says what each value is."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from portal.core.config_fields import ROOT

TEMPLATES = sorted(p for p in (ROOT / "templates").rglob("*.html")
                   if "table--stacked" in p.read_text())


def _columns(table) -> list[str]:
    return [th.get_text(" ", strip=True) for th in table.select("thead th")]


def test_the_main_lists_stack_on_a_phone() -> None:
    names = {p.relative_to(ROOT / "templates").as_posix() for p in TEMPLATES}
    assert {"merchants/index.html", "status/page.html", "admin/audit.html",
            "admin/dashboard.html", "payments/index.html"} <= names


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: p.name)
def test_every_cell_is_labelled_with_its_column(template) -> None:
    soup = BeautifulSoup(template.read_text(), "html.parser")
    for table in soup.select("table.table--stacked"):
        columns = _columns(table)
        for row in table.select("tbody tr"):
            labels = [td.get("data-label") for td in row.find_all("td", recursive=False)]
            assert labels == columns, f"{template.name}: {labels} under {columns}"
