"""Fixtures of the bulk import tests: the shipped example file and variants of it."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from portal.sandbox.onboarding.records import ReceivedRequest
from tests.support.dialects import every_dialect_fixture

DATA = Path(__file__).parent / "data"
EXAMPLE = DATA / "example.csv"

#: Every test here runs once per answer dialect of the sandbox (docs/gateway-contract.md, "Reading
#: answers").
every_answer_dialect = every_dialect_fixture()


def example_rows() -> list[dict[str, str]]:
    """The example file's rows as dicts (a fresh copy each call)."""
    with EXAMPLE.open(newline="") as handle:
        return list(csv.DictReader(handle))


def csv_text(rows: list[dict[str, str]]) -> str:
    """Rows as CSV with the example's header."""
    out = io.StringIO()
    writer = csv.DictWriter(out, list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


@pytest.fixture
def write_csv(tmp_path: Path):
    """``write_csv(rows)``: the rows as a CSV beside a copy of the example's documents."""
    shutil.copytree(DATA / "docs", tmp_path / "docs")

    def write(rows: list[dict[str, str]], name: str = "merchants.csv") -> Path:
        path = tmp_path / name
        path.write_text(csv_text(rows))
        return path

    return write


def received(sandbox, method: str | None = None) -> list[ReceivedRequest]:
    """The requests the sandbox's onboarding API received (of ``method``, if given)."""
    log = sandbox.state.onboarding.received_requests()
    return [r for r in log if method is None or r.method == method]


def creates(sandbox) -> int:
    """How many create calls reached the sandbox."""
    return len(received(sandbox, "POST"))
