"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from portal.sandbox.onboarding.records import ReceivedRequest
from tests.support.workers import run_worker

DATA = Path(__file__).parent / "data"


EXAMPLE = DATA / "example.csv"


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


def received(sandbox, method: str | None = None) -> list[ReceivedRequest]:
    """The requests the sandbox's onboarding API received (of ``method``, if given)."""
    log = sandbox.state.onboarding.received_requests()
    return [r for r in log if method is None or r.method == method]


def creates(sandbox) -> int:
    """How many create calls reached the sandbox."""
    return len(received(sandbox, "POST"))


def upload(client, content: bytes, **fields: str):
    """Post the upload form with a file."""
    data = {"file": (io.BytesIO(content), "merchants.csv"), **fields}
    return client.post("/admin/bulk/", data=data, content_type="multipart/form-data")


def finished(client, location: str) -> dict:
    """Let a worker run the queued import, then read its progress as the page's script does."""
    assert client.get(f"{location}/progress").get_json()["finished"] is False
    run_worker(client.application)
    return client.get(f"{location}/progress").get_json()
