"""Fixtures of the bulk import tests: the shipped example file and variants of it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.bulk.support import DATA, csv_text
from tests.support.dialects import every_dialect_fixture

#: Every test here runs once per answer dialect of the sandbox (docs/gateway-contract.md, "Reading
#: answers").
every_answer_dialect = every_dialect_fixture()


@pytest.fixture
def write_csv(tmp_path: Path):
    """``write_csv(rows)``: the rows as a CSV beside a copy of the example's documents."""
    shutil.copytree(DATA / "docs", tmp_path / "docs")

    def write(rows: list[dict[str, str]], name: str = "merchants.csv") -> Path:
        path = tmp_path / name
        path.write_text(csv_text(rows))
        return path

    return write


