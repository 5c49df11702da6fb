"""Cells a bulk file should never hold: a control character (the rule every typed value obeys,
``portal.core.typed_text``) and a cell longer than the CSV reader takes. Both are a problem of their
row and column, found when the file is checked, on SQLite and PostgreSQL alike: never a 500,
never a row that fails only in the worker."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import func, select

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.typed_text import CONTROL_CHARACTER, LINE_BREAK_HELD
from portal.features.bulk.parsing import MAX_CELL, TOO_LONG, parse_csv
from tests.bulk.support import csv_text, example_rows, finished, received, upload
from tests.outbox.support import (
    app,
    database_url,
    migrated_any_database_url,
    migrated_postgres_template,
)

__all__ = ["app", "database_url", "migrated_any_database_url", "migrated_postgres_template"]


@pytest.fixture
def admin(auth, client):
    """The test client, signed in as an admin."""
    auth.login("admin")
    return client


def problems(response) -> list[list[str]]:
    """The page's problems table: row, column, message."""
    page = BeautifulSoup(response.data, "html.parser")
    return [[td.get_text(strip=True) for td in tr.select("td")]
            for tr in page.select(".bulk-errors__table tbody tr")]


def merchants(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Merchant))


def test_a_control_character_in_a_cell_is_its_rows_problem(admin, app, sandbox):
    rows = example_rows()
    rows[1]["registeredName"] = "Chai\x00Point"
    rows[3]["externalOnboardingId"] = "pop-\x1b[31m"
    response = upload(admin, csv_text(rows).encode())
    assert response.status_code == 422
    assert problems(response) == [["3", "registeredName", CONTROL_CHARACTER],
                                  ["5", "externalOnboardingId", CONTROL_CHARACTER]]
    assert merchants(app) == 0 and received(sandbox) == []


def test_a_line_break_in_a_cell_is_its_rows_problem(admin, app, sandbox):
    """Every column is a field typed on one line: a quoted cell spanning lines is refused."""
    rows = example_rows()
    rows[1]["registeredName"] = "Chai\r\nPoint"
    rows[2]["tradeName"] = "Chai\u2028Point"
    rows[3]["owner1_name"] = "Asha\nRao"
    response = upload(admin, csv_text(rows).encode())
    assert response.status_code == 422
    assert problems(response) == [["3", "registeredName", LINE_BREAK_HELD],
                                  ["4", "tradeName", LINE_BREAK_HELD],
                                  ["5", "owner1_name", LINE_BREAK_HELD]]
    assert merchants(app) == 0 and received(sandbox) == []


def test_skipping_rows_with_a_control_character_imports_the_others(admin, app, sandbox):
    rows = example_rows()
    rows[2]["contact_email"] = "owner@merchant.example\x00"
    response = upload(admin, csv_text(rows).encode(), skip_invalid="y")
    progress = finished(admin, response.headers["Location"])
    assert (progress["state"], progress["total"], progress["counts"]["failed"]) == (
        "finished", 9, 0)
    assert merchants(app) == 9


def test_a_cell_over_the_readers_limit_is_its_rows_problem(admin, app, sandbox):
    rows = example_rows()
    rows[4]["tradeName"] = "x" * (MAX_CELL + 1)
    response = upload(admin, csv_text(rows).encode())
    assert response.status_code == 422
    assert problems(response) == [["6", "tradeName", TOO_LONG]]
    assert merchants(app) == 0 and received(sandbox) == []


def test_a_long_quoted_cell_over_several_lines_names_its_column():
    rows = example_rows()[:3]
    rows[1]["registeredName"] = ("line\n" * (MAX_CELL // 4))
    parsed = parse_csv(csv_text(rows).encode())
    assert [(e.row, e.column, e.message) for e in parsed.errors] == [
        (3, "registeredName", TOO_LONG)]
    assert [row.number for row in parsed.rows] == [2]  # the rows after it were not read


def test_a_cell_at_the_limit_is_read():
    rows = example_rows()[:2]
    rows[1]["tradeName"] = "y" * MAX_CELL
    parsed = parse_csv(csv_text(rows).encode())
    assert [e.column for e in parsed.errors] == []
    assert len(parsed.rows) == 2
