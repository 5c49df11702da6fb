"""What the folder's tests share (a test imports no conftest and no other test module): a
merchant the sandbox's review asked for a document, its link, the link page's asks."""

from __future__ import annotations

import io

from bs4 import BeautifulSoup

from portal.core.clients import onboarding_client
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.status_change import StatusSource
from portal.domain.audit.service import SYSTEM
from portal.domain.onboarding import scenarios
from portal.domain.onboarding.status_reads import read_status
from portal.sandbox.onboarding.backend import OnboardingBackend
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



def asked_by_services(app, backend: OnboardingBackend,
                      scenario: str = scenarios.REVIEW_RFI) -> int:
    """:func:`asked_merchant` without a signed-in client (a browser test's CSRF-checked app):
    verification completed and the review run on the sandbox, the status read as a poll."""
    merchant_id = onboard(app, scenario)
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        backend.complete_verification(merchant.onboarding_id)
        backend.tick()
        read_status(onboarding_client(current_settings()), merchant, StatusSource.POLL, SYSTEM)
        db.session.commit()
    return merchant_id


def status_read(app, merchant_id: int) -> str:
    """The status the sandbox reports now, read as a poll."""
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        read_status(onboarding_client(current_settings()), merchant, StatusSource.POLL, SYSTEM)
        db.session.commit()
        return merchant.status or ""


def wording_path(client, merchant_id: int) -> str:
    """Where the merchant's page posts the first ask's wording (the signed-in ``client``)."""
    page = BeautifulSoup(client.get(f"/merchants/{merchant_id}").data, "html.parser")
    return page.select_one("section.asks form.ask__words-form")["action"]
