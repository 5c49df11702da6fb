"""Document history: every upload is a version; a replaced one stays, struck through; downloads
are audited; retention deletes files (never records); an admin exports a merchant as a ZIP."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from portal.core.db import db
from portal.core.models import AuditEvent
from portal.core.models.document import DocumentStatus, StoredDocument
from portal.core.models.merchant import Merchant
from portal.core.models.status_change import StatusChange
from portal.core.storage.current import current_store
from portal.domain.documents.retention import delete_expired_files
from portal.domain.documents.versions import versions_of
from portal.domain.onboarding import scenarios
from tests.support.browser import Browser, Page
from tests.wizard.support import typed, upload

OWNER_DOC = "ABCPR1234K_ASHA_RAO_AADHAR"
FIRST, SECOND = scenarios.sample_pdf("first"), scenarios.sample_pdf("second") + b"% v2\n"


@pytest.fixture
def two_versions(browser: Browser) -> int:
    """A merchant whose first owner's Aadhaar was uploaded and sent twice."""
    page = browser.submit(browser.get("/merchants/new"), typed(scenarios.HAPPY, "create"))
    merchant_id = int(page.response.request.path.split("/")[2])
    for step in ("business", "owners"):
        browser.submit(browser.get(f"/merchants/{merchant_id}/steps/{step}"),
                       typed(scenarios.HAPPY, step))
    page = browser.get(f"/merchants/{merchant_id}/steps/documents")
    page = upload(browser, page, OWNER_DOC, FIRST, "aadhaar.pdf")
    upload(browser, page, OWNER_DOC, SECOND, "aadhaar-new.pdf")
    return merchant_id


def rows(page: Page) -> list:
    return page.soup.select("table.documents tbody tr")


def audit(app, action: str) -> list[AuditEvent]:
    with app.app_context():
        return list(db.session.scalars(select(AuditEvent).where(AuditEvent.action == action)))


def test_a_replaced_version_stays_listed_struck_through(browser, two_versions):
    page = browser.get(f"/merchants/{two_versions}/steps/documents")
    newer, older = rows(page)
    assert newer["data-version"] == "2" and "replaced" not in (newer.get("class") or [])
    assert older["data-version"] == "1" and "replaced" in older["class"]
    assert older.find("del") is not None and newer.find("del") is None
    assert "replaced by version 2 on" in older.get_text(" ", strip=True)
    for row in (newer, older):
        text = row.get_text(" ", strip=True)
        assert "by ops@example.com" in text and "Accepted" in text


def test_the_merchant_summary_lists_every_version(browser, two_versions):
    page = browser.get(f"/merchants/{two_versions}")
    section = page.soup.find("section", attrs={"aria-labelledby": "documents-heading"})
    versions = section.select("tbody tr")
    assert [row["data-version"] for row in versions] == ["2", "1"]
    assert versions[1].find("del") is not None and versions[0].find("del") is None
    assert section.find("form") is None  # the summary offers no retry buttons


def test_downloading_an_old_version_is_audited_and_gives_its_bytes(browser, app, two_versions):
    older = rows(browser.get(f"/merchants/{two_versions}/steps/documents"))[1]
    response = browser.client.get(older.find("a")["href"])
    body = response.data
    response.close()
    assert response.status_code == 200 and body == FIRST
    [event] = audit(app, "document.download")
    assert event.merchant_id == two_versions
    assert event.detail["version"] == 1 and event.detail["replaced"] is True


def test_a_refused_upload_replaces_nothing():
    at = datetime(2026, 1, 1, tzinfo=UTC)
    sent = StoredDocument(id=1, doc_type="GST", status=DocumentStatus.SENT, uploaded_at=at)
    refused = StoredDocument(id=2, doc_type="GST", status=DocumentStatus.REFUSED,
                             uploaded_at=at + timedelta(hours=1))
    resent = StoredDocument(id=3, doc_type="GST", status=DocumentStatus.SENT,
                            uploaded_at=at + timedelta(hours=2))
    other = StoredDocument(id=4, doc_type="PAN", status=DocumentStatus.SENT,
                           uploaded_at=at + timedelta(hours=3))
    views = {v.document.id: v for v in versions_of([other, resent, refused, sent])}
    assert [views[i].number for i in (1, 2, 3, 4)] == [1, 2, 3, 1]
    assert views[1].replaced_by is resent and views[1].replaced_by_number == 3
    assert not views[2].replaced and not views[3].replaced and not views[4].replaced


def finalise(app, merchant_id: int, at: datetime) -> None:
    """Record that the merchant was approved at ``at``."""
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        merchant.status = "APPROVED"
        db.session.add(StatusChange(merchant_id=merchant_id, from_status="PENDING_REVIEW",
                                    to_status="APPROVED", source="poll", at=at))
        db.session.commit()


def test_retention_deletes_files_after_the_final_status_and_keeps_the_records(
        browser, app, settings, two_versions):
    approved = datetime(2026, 3, 1, tzinfo=UTC)
    finalise(app, two_versions, approved)
    with app.app_context():
        store = current_store()
        assert delete_expired_files(store, 30, approved + timedelta(days=29)) == 0
        assert delete_expired_files(store, 0, approved + timedelta(days=400)) == 0
        assert delete_expired_files(store, 30, approved + timedelta(days=31)) == 2
        documents = list(db.session.scalars(select(StoredDocument)))
    assert len(documents) == 2
    assert all(d.file_deleted_at is not None for d in documents)
    assert not any((Path(settings.upload_folder) / d.stored_name).exists() for d in documents)
    assert len(audit(app, "document.file_deleted")) == 2
    assert all(e.actor_label == "retention" for e in audit(app, "document.file_deleted"))
    page = browser.get(f"/merchants/{two_versions}/steps/documents")
    assert all("file deleted on" in row.get_text() and row.find("a") is None
               for row in rows(page))
    with app.app_context():
        first = db.session.scalars(select(StoredDocument).order_by(StoredDocument.id)).first()
    response = browser.client.get(f"/merchants/{two_versions}/documents/{first.id}",
                                  follow_redirects=True)
    assert "deleted on" in response.get_data(as_text=True)
    assert audit(app, "document.download") == []


def test_retention_spares_a_merchant_still_onboarding(browser, app, settings, two_versions):
    with app.app_context():
        assert delete_expired_files(current_store(), 1,
                                    datetime.now(UTC) + timedelta(days=365)) == 0


def test_the_purge_command_says_what_it_did(app, runner):
    result = runner.invoke(args=["documents", "purge"])
    assert result.exit_code == 0 and "every document file is kept" in result.output


def test_an_admin_exports_everything_about_a_merchant(app, client, auth, browser, two_versions):
    auth.logout()
    auth.login("admin")
    page = client.get(f"/merchants/{two_versions}")
    assert b"Download the ZIP" in page.data
    response = client.post(f"/merchants/{two_versions}/export")
    body = response.data
    response.close()
    assert response.status_code == 200 and response.mimetype == "application/zip"
    bundle = zipfile.ZipFile(io.BytesIO(body))
    record = json.loads(bundle.read("merchant.json"))
    assert record["merchant"]["id"] == two_versions
    with app.app_context():
        # masked as the pages show it
        assert record["merchant"]["pan"] == db.session.get(Merchant, two_versions).pan_masked
    assert "pan_index" not in record["merchant"]
    assert {d["version"] for d in record["documents"]} == {1, 2}
    assert {draft["step"] for draft in record["stepDrafts"]} >= {"business", "owners"}
    assert any(e["action"] == "document.store" for e in record["auditTrail"])
    files = sorted(n for n in bundle.namelist() if n.startswith("documents/"))
    assert [bundle.read(name) for name in files] == [FIRST, SECOND]
    assert [e.merchant_id for e in audit(app, "merchant.export")] == [two_versions]


def test_ops_cannot_export(browser, client, two_versions):
    assert b"Download the ZIP" not in client.get(f"/merchants/{two_versions}").data
    assert client.post(f"/merchants/{two_versions}/export").status_code == 403


def test_the_export_needs_the_form_token(csrf_client, csrf_app):
    assert csrf_client.post("/merchants/1/export").status_code in (400, 403)
