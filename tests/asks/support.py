"""What the folder's tests share (a test imports no conftest and no other test module): a
merchant the sandbox's review asked for a document, its link, the link page's asks."""

from __future__ import annotations

import io

from bs4 import BeautifulSoup

from portal.domain.onboarding import scenarios
from tests.verification.support import backend_of, complete_on_sandbox_page, frame_src, onboard

#: The smallest file the documents step takes as a PDF (its magic bytes).
PDF = b"%PDF-1.4\n%sample\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def asked_merchant(app, client, sandbox, scenario: str = scenarios.REVIEW_RFI) -> int:
    """A merchant verified and reviewed into RFI (the sandbox asks for a bank statement), its
    status read by the portal; the signed-in ``client`` is ops'. Its id."""
    merchant_id = onboard(app, scenario)
    complete_on_sandbox_page(frame_src(client.get(
        f"/merchants/{merchant_id}/verification/session").data))
    backend_of(sandbox).tick()
    assert client.get(f"/merchants/{merchant_id}/status").status_code == 200  # reads it
    return merchant_id


def link_page(client, path: str) -> BeautifulSoup:
    """The merchant's link page at ``path`` (200), parsed."""
    response = client.get(path)
    assert response.status_code == 200, response.status_code
    return BeautifulSoup(response.data, "html.parser")


def post_upload(client, path: str, soup: BeautifulSoup, content: bytes, name: str,
                index: int = 0):
    """Post the ``index``-th ask's upload form on the page ``soup`` with a file."""
    form = soup.select("form.ask__form")[index]
    values = {field["name"]: field.get("value", "") for field in form.select("input[type=hidden]")}
    values["file"] = (io.BytesIO(content), name)
    return client.post(form["action"], data=values, content_type="multipart/form-data")


def asks_on(soup: BeautifulSoup) -> list[tuple[str, str]]:
    """Each ask on the page: its state and its words."""
    return [(item["data-state"], item.select_one(".ask__words").get_text(strip=True))
            for item in soup.select("li.ask")]

