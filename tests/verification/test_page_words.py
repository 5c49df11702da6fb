"""Pages people read show labels, not the gateway's codes (issue 12, people words)."""

from __future__ import annotations

import csv
import io
import re

import pytest
from bs4 import BeautifulSoup

from portal.gateway.onboarding.vocabulary import OnboardingStatus
from tests.verification.support import onboard

#: What must never be read on a page: a status code, a checklist key, a product or document code.
RAW_CODES = re.compile(r"\b(?:" + "|".join(
    [*(s.value for s in OnboardingStatus if "_" in s.value or s.value == "RFI"),
     "tncAcknowledged", "businessDetails", "beneficialOwners", "digiLocker",
     "DOMESTIC_CARDS_UPI_AND_INB", "CANCELLED_CHEQUE", "[A-Z]{5}[0-9]{4}[A-Z]_[A-Z_]+_AADHAR",
     "NOT_CREATED", "not_started", "needs_attention"]) + r")\b")


def _visible_text(response) -> str:
    assert response.status_code == 200
    soup = BeautifulSoup(response.data, "html.parser")
    for hidden in soup(["script", "style", "template", "title"]):
        hidden.decompose()
    return soup.get_text(" ", strip=True)


@pytest.fixture
def in_verification(app) -> int:
    """A merchant at PENDING_VERIFICATION with its checklist filled in."""
    return onboard(app)


@pytest.mark.parametrize("path", [
    "/merchants", "/merchants/{id}", "/merchants/{id}/status", "/merchants/{id}/steps/documents",
    "/admin/",
])
def test_pages_show_words_not_codes(client, auth, in_verification, path):
    auth.login("admin")
    text = _visible_text(client.get(path.format(id=in_verification)))
    assert RAW_CODES.findall(text) == []


def test_the_status_page_reads_in_words_with_a_coloured_badge(client, auth, in_verification):
    auth.login("ops")
    soup = BeautifulSoup(client.get(f"/merchants/{in_verification}/status").data, "html.parser")
    status = soup.select_one(".onboarding-status .badge")
    assert status["class"] == ["badge", "badge--warning"]
    assert status.get_text() == (
        "Pending verification (waiting for the merchant's verification)")
    checklist = {dt.get_text(): dd.get_text() for dt, dd in zip(
        soup.select(".checklist dt"), soup.select(".checklist dd"), strict=True)}
    assert checklist["Business details"] == "Complete"
    assert checklist["Terms and conditions"] == "To do"
    tile = soup.select_one(".stepper__step[data-step='status'] .stepper__state")
    assert tile.get_text() == "Pending verification"


def test_the_merchants_list_shows_the_status_label_in_a_badge(client, auth, in_verification):
    auth.login("ops")
    soup = BeautifulSoup(client.get("/merchants").data, "html.parser")
    cell = soup.select_one(f"tr[data-merchant='{in_verification}'] td.status")
    assert cell.get_text(strip=True) == "Pending verification"
    assert "badge--warning" in cell.select_one(".badge")["class"]
    options = [o.get_text() for o in soup.select("select[name=status] option")]
    assert "More information requested" in options and "Pending review" in options


def test_the_documents_page_points_to_the_products_step_once_nothing_is_outstanding(
        client, auth, in_verification):
    auth.login("ops")
    soup = BeautifulSoup(client.get(f"/merchants/{in_verification}/steps/documents").data,
                         "html.parser")
    link = soup.select_one(".nothing-outstanding a.next-step")
    assert link.get_text() == "step 7, products"
    assert link["href"] == f"/merchants/{in_verification}/steps/products"


def test_the_checklist_export_adds_columns_in_words(client, auth, in_verification):
    auth.login("admin")
    rows = list(csv.DictReader(io.StringIO(client.get("/admin/checklist.csv").get_data(
        as_text=True))))
    [row] = [r for r in rows if r["merchant_id"] == str(in_verification)]
    assert row["status"] == "PENDING_VERIFICATION"
    assert row["status_label"] == "Pending verification"
    assert "Terms and conditions: To do" in row["checklist"]
    assert RAW_CODES.findall(row["status_label"] + row["checklist"]) == []


def test_the_audit_trail_says_who_did_what_to_which_merchant(client, auth, app,
                                                             in_verification):
    auth.login("admin")
    soup = BeautifulSoup(client.get(f"/admin/audit?merchant={in_verification}").data,
                         "html.parser")
    sentences = [td.get_text() for td in soup.select("td.sentence")]
    assert any(re.fullmatch(r"System sent business details for .+\.", s) for s in sentences), (
        sentences)
    row = soup.select_one("tr[data-action='step.send.business']")
    assert row.select_one("details summary") is not None
    assert row.select_one("details:not([open])") is not None
    assert '"status"' in row.select_one("details pre").get_text()
