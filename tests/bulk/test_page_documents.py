"""The bulk page finishes merchants: a ZIP of documents beside the CSV, a template and the codes
to fill a file, results in words with PANs masked, the display name kept, the admin credited."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from sqlalchemy import select

from portal.core.db import db
from portal.core.models import AuditEvent
from portal.core.models.merchant import Merchant
from portal.domain.users.accounts import find_user
from portal.features.bulk.columns import BY_NAME
from tests.bulk.document_uploads import example_docs, problems, soup, upload, zipped
from tests.bulk.support import EXAMPLE, csv_text, example_rows, received
from tests.support.workers import run_worker


def password_flagged(archive: bytes, name: str) -> bytes:
    """``archive`` with entry ``name`` marked as encrypted in its central directory (Python's
    zipfile writes no encrypted entries; the portal reads the flag, never the content)."""
    data = bytearray(archive)
    at = data.find(b"PK\x01\x02")
    while at >= 0:
        size = int.from_bytes(data[at + 28:at + 30], "little")
        if data[at + 46:at + 46 + size] == name.encode():
            data[at + 8] |= 0x1
        at = data.find(b"PK\x01\x02", at + 4)
    return bytes(data)


@pytest.fixture
def admin(auth, client):
    auth.login("admin")
    return client


def test_a_zip_of_documents_lets_every_row_finish(admin, app, sandbox, settings):
    response = upload(admin, EXAMPLE.read_bytes(), zipped(example_docs()))
    assert response.status_code == 302, problems(response)
    location = response.headers["Location"]
    run_worker(app)
    progress = admin.get(f"{location}/progress").get_json()
    assert progress["counts"] == {"created": 10, "resumed": 0, "completed": 10,
                                  "awaiting_documents": 0, "failed": 0, "outcome_unknown": 0,
                                  "linked": 0}
    assert progress["skippedDocuments"] == 0
    sent = [r for r in received(sandbox, "PUT") if r.raw_path.endswith("/docs")]
    assert len(sent) == 9 * 2 + 2  # as the CLI sends them: two Aadhaars each, the LLP's two
    with app.app_context():
        assert {m.status for m in db.session.scalars(select(Merchant))} \
            == {"PENDING_VERIFICATION"}
    # the copies of the ZIP's files are gone once the import ended
    assert not list((Path(settings.upload_folder) / "bulk-imports").glob("*/*"))


def test_every_audit_entry_of_an_import_is_the_admins(admin, app, sandbox):
    upload(admin, EXAMPLE.read_bytes(), zipped(example_docs()))
    run_worker(app)  # no request, no signed-in user: the worker's entries too
    with app.app_context():
        me = find_user("admin@example.com")
        events = db.session.scalars(select(AuditEvent).where(
            AuditEvent.action.not_in(("user.login",)))).all()
        actions = {e.action for e in events}
        assert {"bulk.import.start", "merchant.start", "step.send.create", "document.store",
                "status.change", "bulk.import.end"} <= actions
        assert {(e.actor_label, e.actor_id) for e in events} == {(me.email, me.id)}


def test_the_display_name_stays_the_portals_name(admin, app, sandbox):
    rows = example_rows()[:1]
    rows[0]["displayName"] = "Anand (Andheri shop)"
    upload(admin, csv_text(rows).encode())
    run_worker(app)
    with app.app_context():
        merchant = db.session.scalars(select(Merchant)).one()
        assert merchant.legal_name == "Anand Textiles Private Limited"
        assert merchant.name == "Anand (Andheri shop)"
        merchant_id = merchant.id
    listed = soup(admin.get("/merchants")).select_one("td[data-label='Merchant'] a")
    assert listed.get_text(strip=True) == "Anand (Andheri shop)"
    summary = soup(admin.get(f"/merchants/{merchant_id}"))
    assert summary.h1.get_text(strip=True) == "Anand (Andheri shop)"
    assert "Anand Textiles Private Limited" in summary.select_one("dl.readonly").get_text()


def test_files_missing_from_the_zip_or_not_documents_are_problems_and_nothing_is_sent(
        admin, sandbox):
    rows = example_rows()
    rows[0]["owner1_aadhar"] = "docs/missing.pdf"
    rows[1]["owner2_aadhar"] = "docs/note.txt"
    rows[2]["owner1_aadhar"] = "../../etc/passwd"
    rows[3]["owner1_aadhar"] = "docs/locked.pdf"
    files = {**example_docs(), "docs/note.txt": b"not a document",
             "docs/locked.pdf": b"%PDF-1.4 secret"}
    archive = password_flagged(zipped(files), "docs/locked.pdf")
    response = upload(admin, csv_text(rows).encode(), archive)
    assert response.status_code == 422
    found = {(row, column): message for row, column, message in problems(response)}
    assert found[("2", "owner1_aadhar")] == "No file docs/missing.pdf in the ZIP of documents"
    assert found[("3", "owner2_aadhar")].startswith("Only PDF, JPEG and PNG files are accepted")
    assert found[("4", "owner1_aadhar")].startswith("../../etc/passwd is not a name inside the ZIP")
    assert found[("5", "owner1_aadhar")].startswith("docs/locked.pdf is protected by a password")
    assert received(sandbox) == []


def test_a_zip_whose_files_are_not_in_a_folder_is_matched_by_file_name(admin, app, sandbox):
    rows = example_rows()[:1]
    response = upload(admin, csv_text(rows).encode(), zipped(example_docs(prefix="")))
    assert response.status_code == 302, problems(response)
    run_worker(app)
    progress = admin.get(response.headers["Location"] + "/progress").get_json()
    assert progress["counts"]["completed"] == 1


def test_a_file_that_is_not_a_zip_is_refused_beside_its_field(admin, sandbox):
    response = upload(admin, EXAMPLE.read_bytes(), b"PK\x03\x04 not really a zip")
    assert response.status_code == 422
    field = soup(response).select_one("#documents-errors")
    assert "not a ZIP archive" in field.get_text()
    assert received(sandbox) == []


def test_a_document_over_the_limit_is_refused_without_unpacking_it(admin, app, sandbox):
    rows = example_rows()[:1]
    big = b"%PDF-1.4\n" + b"0" * (6 * 1024 * 1024)
    files = {**example_docs(), "docs/asha-rao-aadhaar.pdf": big}
    response = upload(admin, csv_text(rows).encode(), zipped(files))
    assert response.status_code == 422
    assert problems(response)[0][1:] == [
        "owner1_aadhar", "The file is larger than the limit of 5 MB; scan it at a lower "
        "resolution or split it."]


def test_the_template_lists_every_column_and_its_example_imports(admin, app, sandbox):
    page = soup(admin.get("/admin/bulk/"))
    link = page.find("a", string="Download a template (CSV)")
    template = admin.get(link["href"])
    assert template.mimetype == "text/csv"
    assert "attachment" in template.headers["Content-Disposition"]
    header, example = list(csv.reader(io.StringIO(template.get_data(as_text=True))))
    assert set(header) == set(BY_NAME) and len(header) == len(BY_NAME)  # every column once
    row = dict(zip(header, example, strict=True))
    assert (row["owner1_aadhar"], row["owner2_aadhar"]) == ("docs/asha-rao-aadhaar.pdf",
                                                            "docs/vikram-mehta-aadhaar.pdf")
    response = upload(admin, template.data, zipped(example_docs()))
    assert response.status_code == 302, problems(response)
    run_worker(app)
    progress = admin.get(response.headers["Location"] + "/progress").get_json()
    assert progress["counts"]["completed"] == 1


def test_the_codes_file_names_every_code_in_words(admin, sandbox):
    page = soup(admin.get("/admin/bulk/"))
    link = page.find("a", string="Download the allowed codes (CSV)")
    rows = list(csv.reader(io.StringIO(admin.get(link["href"]).get_data(as_text=True))))
    assert rows[0] == ["column", "code", "meaning"]
    codes = {(column, code): meaning for column, code, meaning in rows[1:]}
    assert codes[("entityType", "PVT_LTD_COMPANY")] == "Private limited company"
    assert codes[("natureOfBusiness", "BUS.IT_SERVICES")] == (
        "Business services: Computer programming and IT services")
    assert codes[("products", "DOMESTIC_CARDS_UPI_AND_INB")].startswith(
        "Domestic cards, UPI and net banking")
    assert codes[("*_feeType", "PERCENTAGE")] == "Percentage"
    assert codes[("accountType", "SAVINGS")] == "Savings"
    assert codes[("doc_GST_SUPPORTING_CERTIFICATE", "")].endswith("GST certificate")


@pytest.mark.parametrize("path", ["/admin/bulk/template.csv", "/admin/bulk/codes.csv"])
def test_ops_cannot_download_the_bulk_files(auth, client, path):
    auth.login("ops")
    assert client.get(path).status_code == 403
