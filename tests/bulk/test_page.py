"""The admin page's import: upload, the problems table and CSV, live progress, admins only."""

from __future__ import annotations

import csv
import io

import pytest
from bs4 import BeautifulSoup
from sqlalchemy.exc import IntegrityError

from portal.core.db import db
from portal.core.models.bulk import BulkImport
from portal.core.models.merchant import Merchant
from portal.features.bulk import runner
from portal.features.bulk.runner import CHANGED_MEANWHILE, FAILED_HERE
from tests.bulk.support import EXAMPLE, creates, csv_text, example_rows, finished, received, upload
from tests.support.workers import run_worker

ROUTES = [("GET", "/admin/bulk/"), ("POST", "/admin/bulk/"), ("GET", "/admin/bulk/1"),
          ("GET", "/admin/bulk/1/progress"), ("GET", "/admin/bulk/1/errors.csv"),
          ("GET", "/admin/bulk/1/needs.csv"), ("POST", "/admin/bulk/1/cancel")]


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "html.parser")


@pytest.fixture
def admin(auth, client):
    auth.login("admin")
    return client


def test_a_valid_file_is_imported_by_a_worker_without_documents(admin, app, sandbox):
    response = upload(admin, EXAMPLE.read_bytes())
    assert response.status_code == 302
    location = response.headers["Location"]
    page = soup(admin.get(location))
    assert page.select_one("#bulk-progress")["data-progress-url"] == f"{location}/progress"

    progress = finished(admin, location)
    assert progress["state"] == "finished"
    assert (progress["done"], progress["total"]) == (10, 10)
    assert progress["counts"] == {"created": 10, "resumed": 0, "completed": 0,
                                  "awaiting_documents": 10, "outcome_unknown": 0, "linked": 0,
                                  "failed": 0}
    assert progress["skippedDocuments"] == 20
    assert [p["state"] for p in progress["problems"]] == ["awaiting_documents"] * 10
    assert progress["problems"][0]["reason"] == (
        "Documents to upload in the wizard: Aadhaar of Asha Rao (PAN ******234K), "
        "Aadhaar of Vikram Mehta (PAN ******678L)")
    assert not [r for r in received(sandbox, "PUT") if r.raw_path.endswith("/docs")]
    with app.app_context():
        assert {m.status for m in db.session.query(Merchant)} == {"IN_PROGRESS"}

    page = soup(admin.get(location))
    assert "ABCPR1234K" not in page.get_text()  # the Aadhaar's key, masked as elsewhere
    assert "20 document cells skipped" in page.get_text(" ")
    assert page.select_one("[data-count='awaiting_documents']").get_text() == "10"
    assert page.find("script") is None  # no polling once finished
    assert page.find("noscript") is None


def test_uploading_the_same_file_again_resumes(admin, sandbox):
    first = finished(admin, upload(admin, EXAMPLE.read_bytes()).headers["Location"])
    second = finished(admin, upload(admin, EXAMPLE.read_bytes()).headers["Location"])
    assert first["counts"]["created"] == 10
    assert second["counts"]["created"] == 0 and second["counts"]["resumed"] == 10
    assert creates(sandbox) == 10


def test_a_running_import_refreshes_itself_with_or_without_script(admin, app):
    with app.app_context():
        db.session.add(BulkImport(filename="slow.csv", started_by="a@example.com",
                                  state="running", rows=3, total=3, done=1, counts={},
                                  errors=[], problems=[], skipped_documents=0))
        db.session.commit()
    page = soup(admin.get("/admin/bulk/1"))
    assert page.select_one("noscript meta[http-equiv='refresh']") is not None
    script = page.select_one("script")
    assert script["src"] == "/static/js/progress.js" and not script.string
    with admin.get(script["src"]) as served:
        assert served.status_code == 200
    assert page.select_one("#bulk-progress-bar")["value"] == "1"


def test_problems_are_shown_as_a_table_and_a_csv_and_nothing_is_sent(admin, sandbox):
    rows = example_rows()
    rows[1]["owner2_pan"] = "AAACB1234C"
    rows[4]["bankIfscCode"] = "SBIN123"
    response = upload(admin, csv_text(rows).encode())
    assert response.status_code == 422
    page = soup(response)
    cells = [[td.get_text(strip=True) for td in tr.select("td")]
             for tr in page.select(".bulk-errors__table tbody tr")]
    assert [c[:2] for c in cells] == [["3", "owner2_pan"], ["6", "bankIfscCode"]]
    assert "Nothing was sent to the gateway" in page.get_text()

    download = admin.get(page.select_one(".bulk-errors a[download]")["href"])
    assert download.mimetype == "text/csv"
    report = list(csv.reader(io.StringIO(download.get_data(as_text=True))))
    assert report[0] == ["row", "column", "message"]
    assert [r[:2] for r in report[1:]] == [["3", "owner2_pan"], ["6", "bankIfscCode"]]
    assert report[2][2].startswith("Not a valid IFSC")
    assert received(sandbox) == []


def test_skipping_invalid_rows_imports_the_others(admin, sandbox):
    rows = example_rows()
    rows[0]["panNumber"] = "nope"
    response = upload(admin, csv_text(rows).encode(), skip_invalid="y")
    progress = finished(admin, response.headers["Location"])
    assert progress["total"] == 9 and progress["counts"]["created"] == 9
    page = soup(admin.get(response.headers["Location"]))
    assert page.select_one(".bulk-errors__table td code").get_text() == "panNumber"


def test_a_file_that_is_not_csv_is_refused_by_the_form(admin, sandbox):
    data = {"file": (io.BytesIO(b"%PDF-1.4"), "merchants.pdf")}
    response = admin.post("/admin/bulk/", data=data, content_type="multipart/form-data")
    assert response.status_code == 200
    assert "Upload a .csv file." in response.get_data(as_text=True)
    assert received(sandbox) == []


def test_an_unknown_import_is_not_found(admin):
    assert admin.get("/admin/bulk/99").status_code == 404
    assert admin.get("/admin/bulk/99/progress").status_code == 404


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_ops_cannot_reach_the_page(auth, client, method, path):
    auth.login("ops")
    assert client.open(path, method=method).status_code == 403


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_anonymous_users_are_sent_to_sign_in(client, method, path):
    response = client.open(path, method=method)
    assert response.status_code == 302 and "/login" in response.headers["Location"]


@pytest.mark.parametrize(("column", "defused"), [
    ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
    # a spreadsheet splitting on ';' or tab would start a cell at the '=' or '+'
    ("Acme;=2*3;tail", "Acme;'=2*3;tail"),
    ("Acme\t+SUM(A1)", "Acme\t'+SUM(A1)"),
])
def test_the_csv_report_defuses_formulas(admin, column, defused):
    rows = [{**row, column: ""} for row in example_rows()]
    response = upload(admin, csv_text(rows).encode())
    href = soup(response).select_one(".bulk-errors a[download]")["href"]
    report = list(csv.reader(io.StringIO(admin.get(href).get_data(as_text=True))))
    assert report[1] == ["1", defused, "Unknown column"]


def test_a_running_import_can_be_cancelled_from_its_page(admin, app, sandbox):
    location = upload(admin, EXAMPLE.read_bytes()).headers["Location"]
    form = soup(admin.get(location)).select_one("form.bulk-cancel")
    assert form["action"] == f"{location}/cancel"
    assert form.button.get_text(strip=True) == "Cancel the import"
    answer = admin.post(form["action"], follow_redirects=True)
    assert "The import was cancelled" in answer.get_data(as_text=True)
    run_worker(app)
    progress = admin.get(f"{location}/progress").get_json()
    assert (progress["state"], progress["done"], progress["finished"]) == ("cancelled", 0, True)
    assert received(sandbox) == []
    page = soup(admin.get(location))
    assert page.select_one("form.bulk-cancel") is None
    assert "Upload the same file again to resume it" in page.get_text(" ")
    again = admin.post(f"{location}/cancel", follow_redirects=True)
    assert "The import had already ended." in again.get_data(as_text=True)


@pytest.mark.parametrize(("failure", "reason"), [
    (IntegrityError("INSERT", {}, Exception("UNIQUE constraint failed")), CHANGED_MEANWHILE),
    (RuntimeError("boom"), FAILED_HERE),
])
def test_a_row_the_portal_fails_on_says_so_in_words(admin, sandbox, monkeypatch, failure,
                                                    reason):
    def failing(*args, **kwargs):
        raise failure

    monkeypatch.setattr(runner, "onboard_row", failing)
    progress = finished(admin, upload(admin, EXAMPLE.read_bytes()).headers["Location"])
    assert progress["counts"]["failed"] == 10
    assert {p["reason"] for p in progress["problems"]} == {reason}
    assert "Error" not in reason and "Unexpected" not in reason
