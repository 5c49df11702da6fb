"""What the review asks for (docs/gateway-contract.md, "RFI details"): the status answer's
``rfiDetails`` kept as sent and shown on the status page as the gateway's quoted words, never
as links; a document type beyond the gateway's list taken by the documents step."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from portal.core.clients import onboarding_client
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import SYSTEM
from portal.domain.documents import service as documents
from portal.domain.onboarding import scenarios
from portal.domain.onboarding.gateway_record import RFI_DETAILS_LIMIT, keep_rfi_details
from portal.features.status.rfi_details import rfi_details
from tests.support.browser import Browser
from tests.support.rows import stored
from tests.verification.support import (
    backend_of,
    complete_on_sandbox_page,
    frame_src,
    onboard,
    page_soup,
)
from tests.wizard.support import upload


def reviewed(app, client, sandbox, scenario: str) -> int:
    """A merchant of ``scenario`` verified and reviewed; its id."""
    merchant_id = onboard(app, scenario)
    complete_on_sandbox_page(frame_src(client.get(
        f"/merchants/{merchant_id}/verification/session").data))
    backend_of(sandbox).tick()
    return merchant_id


def status_page(client, merchant_id: int) -> BeautifulSoup:
    """The merchant's status page (which reads the status first), parsed."""
    return page_soup(client, f"/merchants/{merchant_id}/status")


def test_the_reviews_details_are_kept_and_quoted_and_never_links(app, client, auth, sandbox,
                                                                  every_answer_dialect):
    auth.login("ops")
    merchant_id = reviewed(app, client, sandbox, scenarios.REVIEW_RFI)
    soup = status_page(client, merchant_id)
    merchant = stored(app, merchant_id)
    assert merchant.status == "RFI"
    if every_answer_dialect == "contract":  # the contract's answer carries none
        assert merchant.rfi_details is None and soup.select_one(".rfi-details") is None
        return
    assert merchant.rfi_details["documentsRequested"] == ["BANK_STATEMENT"]
    details = soup.select_one(".rfi-details")
    quoted = {entry.select_one(".rfi-details__name").get_text():
              entry.select_one(".rfi-details__list li").get_text(" ", strip=True)
              for entry in details.select(".rfi-details__entry")}
    assert quoted == {  # the gateway's words, verbatim; a known type's name beside, in brackets
        "Reason": "The compliance review needs more information before it can decide.",
        "Documents requested": "BANK_STATEMENT (Bank statement)",
        "Remarks": "Upload each requested document as a PDF; the guidelines are at "
                   "https://gateway.example.com/help/rfi"}
    assert "BANK_STATEMENT" in [q.get_text() for q in details.select("q.rfi-details__quote")]
    assert details.find("a") is None  # the gateway's link is text, never clickable


@pytest.mark.parametrize(("details", "names", "quotes", "text"), [
    ("Upload a GST certificate", [""], [("Upload a GST certificate", "")], ""),
    (["GST_CERTIFICATE", "MSME_PROOF"], [""],
     [("GST_CERTIFICATE", "GST registration certificate"), ("MSME_PROOF", "")], ""),
    ({"pan_issue": "PAN ABCPR1234K does not match"}, ["Pan issue"],
     [("PAN ******234K does not match", "")], ""),
    ({"count": 2}, [], [], '{\n  "count": 2\n}'),
])
def test_details_in_words_where_they_are_strings_else_their_json(
        app, client, auth, details, names, quotes, text, every_answer_dialect):
    auth.login("ops")
    merchant_id = onboard(app, until="business")
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        keep_rfi_details(merchant, details)
        db.session.commit()
    with app.app_context():
        shown = rfi_details(db.session.get(Merchant, merchant_id))
    assert [e.name for e in shown.entries] == names
    assert [(q.text, q.meaning) for e in shown.entries for q in e.texts] == quotes
    assert shown.text == text and not shown.cut


def test_details_too_large_to_keep_are_cut_and_said_so(app, client, auth,
                                                       every_answer_dialect):
    auth.login("ops")
    merchant_id = onboard(app, until="business")
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        keep_rfi_details(merchant, {"remarks": "x" * RFI_DETAILS_LIMIT})
        db.session.commit()
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        assert merchant.rfi_details_cut and len(merchant.rfi_details) == RFI_DETAILS_LIMIT
        assert merchant.rfi_details.startswith('{"remarks":"xxx')
        shown = rfi_details(merchant)
        assert shown.cut and shown.entries == [] and shown.text == merchant.rfi_details
        keep_rfi_details(merchant, None)  # a read that says nothing: nothing asked any more
        assert (merchant.rfi_details, merchant.rfi_details_cut) == (None, False)


def test_a_document_type_beyond_the_list_is_asked_for_and_taken(app, client, auth, sandbox,
                                                                every_answer_dialect):
    auth.login("ops")
    merchant_id = reviewed(app, client, sandbox, scenarios.REVIEW_RFI_GST)
    soup = status_page(client, merchant_id)  # reads the status
    assert stored(app, merchant_id).documents_outstanding == ["GST_CERTIFICATE"]
    assert "GST registration certificate" in soup.select_one(".rfi-banner").get_text()
    browser = Browser(client)
    page = browser.get(f"/merchants/{merchant_id}/steps/documents")
    assert page.soup.select_one("form.upload[data-slot='GST_CERTIFICATE']") is not None
    page = upload(browser, page, "GST_CERTIFICATE", scenarios.sample_pdf("GST"), "gst.pdf")
    assert "GST registration certificate sent to the gateway." in page.text()
    assert stored(app, merchant_id).status == "PENDING_REVIEW"


def test_a_type_nobody_asked_for_is_refused_by_the_upload(app, auth, every_answer_dialect):
    merchant_id = onboard(app, until="business")
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        result = documents.upload(onboarding_client(current_settings()), current_settings(),
                                  merchant, "GST_CERTIFICATE", "gst.pdf", None, actor=SYSTEM)
    assert not result.ok
    assert result.message == "This document type is not expected for this merchant now."


def test_a_type_the_portal_has_no_words_for_is_shown_as_the_gateway_names_it(
        app, client, auth, every_answer_dialect):
    auth.login("ops")
    merchant_id = onboard(app, until="business")
    with app.app_context():
        db.session.get(Merchant, merchant_id).documents_outstanding = ["MSME_PROOF"]
        db.session.commit()
    soup = page_soup(client, f"/merchants/{merchant_id}/steps/documents")
    heading = soup.select_one("form.upload[data-slot='MSME_PROOF'] h3").get_text(" ", strip=True)
    assert heading == "MSME_PROOF (as the gateway names it)"
