"""Documents: one upload per outstanding type, checked by content, stored, sent, served to staff."""

from __future__ import annotations

import base64
import hashlib
import io
from pathlib import Path

import pytest

from portal.core.config import SETTINGS_EXTENSION
from portal.core.db import db
from portal.core.labels import Kind, label
from portal.core.models.document import StoredDocument
from portal.domain.onboarding import scenarios
from tests.support.accounts import TEST_PASSWORD
from tests.support.browser import Browser, Page
from tests.support.rows import stored
from tests.support.servers import serve, sign_in
from tests.wizard.support import merchant_id_from, point_gateway_at, typed, upload

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
OWNER_DOCS = ["ABCPR1234K_ASHA_RAO_AADHAR", "BCDPM5678L_VIKRAM_MEHTA_AADHAR"]


@pytest.fixture
def needs_documents(browser: Browser, new_merchant: int) -> int:
    """A private company whose two owners each owe an Aadhaar."""
    for step in ("business", "owners"):
        browser.submit(browser.get(f"/merchants/{new_merchant}/steps/{step}"),
                       typed(scenarios.HAPPY, step))
    return new_merchant


def documents_page(browser: Browser, merchant_id: int) -> Page:
    return browser.get(f"/merchants/{merchant_id}/steps/documents")


def stored_documents(app) -> list[StoredDocument]:
    with app.app_context():
        return list(db.session.query(StoredDocument).order_by(StoredDocument.id))


def test_one_upload_form_per_outstanding_document(browser, needs_documents):
    page = documents_page(browser, needs_documents)
    assert [f["data-slot"] for f in page.soup.select("form.upload")] == OWNER_DOCS
    assert page.step_states()["documents"] == "not_started"


def test_an_upload_is_stored_by_a_generated_name_and_sent_in_its_own_call(
        browser, app, settings, sandbox, needs_documents, every_answer_dialect):
    page = upload(browser, documents_page(browser, needs_documents), OWNER_DOCS[0], PNG,
                  "../../etc/aadhaar.png")
    assert f"{label(OWNER_DOCS[0], Kind.DOCUMENT)} sent to the gateway." in page.text()
    [document] = stored_documents(app)
    assert document.content_type == "image/png"
    assert document.sha256 == hashlib.sha256(PNG).hexdigest()
    assert document.original_filename == "etc_aadhaar.png"
    assert document.stored_name.endswith(".png") and "aadhaar" not in document.stored_name
    assert (Path(settings.upload_folder) / document.stored_name).read_bytes() == PNG
    assert document.status == "sent"
    assert bool(document.sent_gid) is (every_answer_dialect == "contract")  # the docs': no gid
    assert stored(app, needs_documents).documents_outstanding == OWNER_DOCS[1:]
    uploads = [r for r in sandbox.state.onboarding.received_requests()
               if r.raw_path.endswith("/docs")]
    assert len(uploads) == 1 and base64.b64encode(PNG) in uploads[0].body
    # once sent, the type can be uploaded again (until the step locks)
    assert OWNER_DOCS[0] in [f["data-slot"] for f in page.soup.select("form.upload")]


@pytest.mark.parametrize(("content", "name", "message"), [
    (b"MZ\x90\x00 this is an executable, not a PDF", "statement.pdf", "judged by their content"),
    (b"", "empty.pdf", "The file is empty."),
    (scenarios.sample_pdf("x") + b"0" * 2000, "big.pdf", "larger than the limit of 2,000 bytes"),
])
def test_bad_uploads_are_refused_beside_the_file_field(browser, app, sandbox, needs_documents,
                                                       content, name, message):
    app.extensions[SETTINGS_EXTENSION] = app.extensions[SETTINGS_EXTENSION].with_changes(
        upload_max_bytes=2000)
    page = upload(browser, documents_page(browser, needs_documents), OWNER_DOCS[0], content, name)
    assert any(message in error for error in page.errors_for("file")), page.errors_for("file")
    assert stored_documents(app) == []
    assert not [r for r in sandbox.state.onboarding.received_requests()
                if r.raw_path.endswith("/docs")]


def test_files_are_served_only_to_signed_in_staff(browser, app, auth, needs_documents):
    upload(browser, documents_page(browser, needs_documents), OWNER_DOCS[0], PNG, "a.png")
    [document] = stored_documents(app)
    url = f"/merchants/{needs_documents}/documents/{document.id}"
    with browser.client.get(url) as response:
        assert response.status_code == 200
        assert response.data == PNG
        assert response.headers["Content-Disposition"].startswith("attachment")
        assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert browser.client.get(f"/merchants/{needs_documents + 1}/documents/{document.id}") \
        .status_code == 404
    auth.logout()
    response = browser.client.get(url)
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]


def test_an_upload_kept_when_the_gateway_is_down_is_sent_by_retry(
        browser, app, sandbox, needs_documents, closed_port):
    point_gateway_at(app, closed_port)
    page = upload(browser, documents_page(browser, needs_documents), OWNER_DOCS[0], PNG, "a.png")
    assert any("could not be reached" in e for e in page.errors_for("file"))
    [document] = stored_documents(app)
    assert document.status == "not_sent"
    point_gateway_at(app, sandbox.url)
    page = documents_page(browser, needs_documents)
    retry = page.soup.select_one("tr[data-status='not_sent'] form")
    response = browser.client.post(retry["action"], follow_redirects=True)
    sent = f"{label(OWNER_DOCS[0], Kind.DOCUMENT)} sent to the gateway."
    assert sent in response.get_data(as_text=True)
    assert stored_documents(app)[0].status == "sent"


def test_sandbox_fill_uploads_a_sample_for_every_outstanding_document(browser, app,
                                                                       needs_documents):
    page = browser.submit(documents_page(browser, needs_documents), action="",
                          selector="form.sample-documents")
    assert page.soup.select_one(".nothing-outstanding") is not None
    assert [d.doc_type for d in stored_documents(app)] == OWNER_DOCS


def test_a_failed_penny_drop_asks_for_a_cancelled_cheque_here(browser, app, new_merchant):
    browser.submit(browser.get(f"/merchants/{new_merchant}/steps/bank"),
                   typed(scenarios.PENNY_DROP_FAILS, "bank"))
    page = documents_page(browser, new_merchant)
    assert "CANCELLED_CHEQUE" in [f["data-slot"] for f in page.soup.select("form.upload")]
    page = upload(browser, page, "CANCELLED_CHEQUE", scenarios.sample_pdf("cheque"), "c.pdf")
    assert stored(app, new_merchant).documents_outstanding == []


def test_a_sole_proprietor_chooses_which_business_proof_to_upload(browser, app):
    # a proprietor's PAN is the proprietor's own: a person's (4th letter P)
    page = browser.submit(browser.get("/merchants/new"),
                          typed(scenarios.HAPPY, "create", panNumber=scenarios.company_pan("P")))
    new_merchant = merchant_id_from(page)
    browser.submit(browser.get(f"/merchants/{new_merchant}/steps/business"),
                   typed(scenarios.HAPPY, "business", entityType="PROPRIETOR"))
    page = documents_page(browser, new_merchant)
    form = page.form("form.upload[data-slot='SOLE_PROP_DOC_1_UPLOAD']")
    assert "UDYAM" in [o["value"] for o in form.select("select[name='docType'] option")]
    page = upload(browser, page, "SOLE_PROP_DOC_1_UPLOAD", PNG, "udyam.png")
    assert stored(app, new_merchant).documents_outstanding == ["SOLE_PROP_DOC_2_UPLOAD"]


def test_a_file_far_over_the_limit_is_read_and_refused_beside_its_field(browser, app,
                                                                         needs_documents):
    app.config["MAX_CONTENT_LENGTH"] = 3000  # the app-wide cap does not cut uploads short
    app.extensions[SETTINGS_EXTENSION] = app.extensions[SETTINGS_EXTENSION].with_changes(
        upload_max_bytes=2000)
    page = upload(browser, documents_page(browser, needs_documents), OWNER_DOCS[0],
                  scenarios.sample_pdf("x") + b"0" * 50_000, "big.pdf")
    assert any("larger than the limit of 2,000 bytes" in e for e in page.errors_for("file"))
    assert stored_documents(app) == []


def test_a_request_over_the_discard_limit_is_answered_with_the_limit(browser, app,
                                                                    needs_documents,
                                                                    monkeypatch):
    monkeypatch.setattr("portal.web.uploads.DISCARD_LIMIT", 3000)
    page = upload(browser, documents_page(browser, needs_documents), OWNER_DOCS[0],
                  scenarios.sample_pdf("x") + b"0" * 5000, "big.pdf")
    assert "larger than the limit of 5 MB" in page.text()
    assert page.response.request.path == f"/merchants/{needs_documents}/steps/documents"
    assert stored_documents(app) == []


def test_an_upload_for_a_type_not_expected_is_refused(browser, app, needs_documents):
    url = f"/merchants/{needs_documents}/steps/documents"
    response = browser.client.post(url, data={
        "slot": "CANCELLED_CHEQUE", "docType": "CANCELLED_CHEQUE",
        "file": (io.BytesIO(PNG), "c.png")}, follow_redirects=True)
    assert "no longer expected" in response.get_data(as_text=True)
    assert stored_documents(app) == []


@pytest.mark.parametrize(("content", "uploaded_as", "offered_as"), [
    (scenarios.sample_pdf("invoice"), "invoice.html", "invoice.pdf"),
    (PNG, "aadhaar.svg", "aadhaar.png"),
    (PNG, "aadhaar", "aadhaar.png"),
])
def test_a_download_is_named_with_the_extension_of_its_checked_type(
        browser, app, needs_documents, content, uploaded_as, offered_as):
    upload(browser, documents_page(browser, needs_documents), OWNER_DOCS[0], content, uploaded_as)
    [document] = stored_documents(app)
    with serve(app) as url:
        ops = sign_in(url, "ops@example.com", TEST_PASSWORD)
        response = ops.get(f"{url}/merchants/{needs_documents}/documents/{document.id}",
                           timeout=10)
    assert response.status_code == 200 and response.content == content
    assert response.headers["Content-Disposition"] == f"attachment; filename={offered_as}"
