"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

import io
import zipfile

from bs4 import BeautifulSoup

from tests.bulk.support import DATA


def zipped(files: dict[str, bytes]) -> bytes:
    """A ZIP holding ``files`` by name."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return out.getvalue()


def example_docs(prefix: str = "docs/") -> dict[str, bytes]:
    """The example's documents, as its CSV names them (``prefix`` for their folder)."""
    return {prefix + path.name: path.read_bytes() for path in (DATA / "docs").iterdir()}


def upload(client, content: bytes, documents: bytes | None = None, **fields: str):
    """Post the upload form with a CSV and, when given, a ZIP."""
    data = {"file": (io.BytesIO(content), "merchants.csv"), **fields}
    if documents is not None:
        data["documents"] = (io.BytesIO(documents), "documents.zip")
    return client.post("/admin/bulk/", data=data, content_type="multipart/form-data")


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "html.parser")


def problems(response) -> list[list[str]]:
    """The problems table: row, column, problem."""
    return [[td.get_text(strip=True) for td in tr.select("td")]
            for tr in soup(response).select(".bulk-errors__table tbody tr")]
