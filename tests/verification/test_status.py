"""Step 9's page: read from the gateway on every view, the stored record when it cannot be."""

from __future__ import annotations

import base64

from bs4 import BeautifulSoup

from portal.core.config import SETTINGS_EXTENSION
from portal.domain.onboarding.scenarios import sample_pdf
from portal.gateway.onboarding.requests import DocumentUploadRequest
from tests.support.rows import stored
from tests.verification.support import backend_of, onboard


def _page(client, merchant_id: int) -> BeautifulSoup:
    response = client.get(f"/merchants/{merchant_id}/status")
    assert response.status_code == 200
    return BeautifulSoup(response.data, "html.parser")


def test_the_page_reads_the_status_and_stores_the_checklist(app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = onboard(app, until="signatory")
    backend = backend_of(sandbox)
    onboarding_id = stored(app, merchant_id).onboarding_id
    backend.upload_document("partner-test", onboarding_id, _doc("ABCPR1234K_ASHA_RAO_AADHAR"))
    soup = _page(client, merchant_id)
    assert soup.select_one(".gateway-unavailable") is None
    assert soup.select_one(".onboarding-status")["data-status"] == "IN_PROGRESS"
    assert [li.get_text() for li in soup.select("ul.outstanding li")] == [
        "Aadhaar of Vikram Mehta (PAN ******678L)"]
    assert soup.select_one("[data-item='businessDetails']").get_text() == "Complete"
    assert soup.select_one("[data-item='products']").get_text() == "To do"
    assert stored(app, merchant_id).documents_outstanding == ["BCDPM5678L_VIKRAM_MEHTA_AADHAR"]
    assert [td["data-status"] for td in soup.select(".timeline td.to")] == ["INITIATED",
                                                                            "IN_PROGRESS"]
    assert [td.get_text() for td in soup.select(".timeline td.to")] == ["Created",
                                                                        "Details being sent"]
    assert {td.get_text() for td in soup.select(".timeline td.source")} == {"Answer to a step"}


def test_when_the_gateway_is_down_the_page_shows_what_was_stored(app, client, auth, settings,
                                                                 closed_port):
    auth.login("ops")
    merchant_id = onboard(app, until="business")
    app.extensions[SETTINGS_EXTENSION] = settings.with_changes(onboarding_url=closed_port)
    soup = _page(client, merchant_id)
    assert "The gateway could not be reached just now." in soup.select_one(
        ".gateway-unavailable").get_text()
    assert soup.select_one(".onboarding-status")["data-status"] == "IN_PROGRESS"


def _doc(doc_type: str) -> DocumentUploadRequest:
    return DocumentUploadRequest(merchantDocType=doc_type, fileName="a.pdf",
                                 documentContent=base64.b64encode(sample_pdf(doc_type)).decode())
