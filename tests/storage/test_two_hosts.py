"""Two hosts, one PostgreSQL, one bucket: two portal processes (gunicorn, as in production)
each on an upload folder of its own, and a worker on a third. A document uploaded through one
is downloaded, versioned and exported through the other, and purged by the worker; no host keeps
a copy of it."""

from __future__ import annotations

import io
import signal
import subprocess
import sys
import zipfile
from contextlib import ExitStack
from datetime import timedelta
from pathlib import Path

import pytest
import requests
from sqlalchemy import select

from bench.bulk_import import write_csv
from portal.app.factory import create_app
from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.document import StoredDocument
from portal.core.models.merchant import Merchant
from portal.core.models.status_change import StatusChange
from portal.domain.audit.service import Actor
from portal.domain.onboarding import scenarios
from portal.features.bulk.runner import run_rows
from portal.features.bulk.validation import check_file
from tests.jobs.support import wait_for
from tests.support.accounts import TEST_PASSWORD, AuthActions, current_code
from tests.support.browser import form_values
from tests.support.object_store import objects, on_bucket
from tests.support.postgres import shared_postgres
from tests.support.servers import ROOT, gunicorn_portal, page_of, portal_environment, sign_in

pytestmark = pytest.mark.postgres

PREFIX = "portal"
ONE_WORKER = ("--workers", "1")
FIRST = scenarios.sample_pdf("host-a") + b"% uploaded through host A\n"
SECOND = scenarios.sample_pdf("host-b") + b"% version 2, uploaded through host B\n"


database_url = shared_postgres()


def host(settings: Settings, folder: Path, **changes: object) -> Settings:
    """One host's settings: the shared database and bucket, an upload folder of its own."""
    return settings.with_changes(upload_folder=str(folder), **changes)


def merchant_awaiting_documents(settings: Settings, folder: Path) -> tuple[int, str]:
    """A merchant sent through steps 1-5 and 7 (as a bulk row), its owners' Aadhaars
    outstanding: its id and the first document it waits for."""
    app = create_app(settings)
    with app.app_context():
        checked = check_file(write_csv(folder, 1, "H").read_bytes(), None)
        run_rows(app, checked.rows, concurrency=1, actor=Actor("test"))
        merchant = db.session.scalars(select(Merchant)).one()
        return merchant.id, merchant.documents_outstanding[0]


def upload(session: requests.Session, url: str, slot: str, content: bytes, name: str) -> None:
    """Post the documents page's form of ``slot`` with a file, as a browser does."""
    page = page_of(session.get(url, timeout=10))
    values = form_values(page.select_one(f"form.upload[data-slot='{slot}']"))
    answer = session.post(url, data=values, files={"file": (name, content, "application/pdf")},
                          timeout=30)
    assert answer.ok and "sent to the gateway" in answer.text, answer.text[-2000:]


def downloads(session: requests.Session, url: str) -> dict[str, bytes]:
    """Each version the documents page lists (by its number) and what its link downloads."""
    rows = page_of(session.get(url, timeout=10)).select("table.documents tbody tr")
    return {row["data-version"]: session.get(url.split("/merchants")[0] + row.find("a")["href"],
                                             timeout=10).content for row in rows}


def test_a_document_uploaded_on_one_host_lives_on_every_other(
        settings, s3_server, s3_bucket, tmp_path):
    shared = on_bucket(settings, s3_server, s3_bucket, PREFIX)
    host_a, host_b = host(shared, tmp_path / "a"), host(shared, tmp_path / "b")
    merchant_id, slot = merchant_awaiting_documents(host_a, tmp_path / "csv")
    app = create_app(host_a)
    auth = AuthActions(app, app.test_client())
    ops, admin = auth.create("ops"), auth.create("admin")
    page = f"/merchants/{merchant_id}/steps/documents"
    with ExitStack() as stack:
        # one gunicorn worker a host: two portal processes are what is shown, and each
        # process fewer is one less to start and stop on a busy machine
        url_a = stack.enter_context(gunicorn_portal(host_a, tmp_path / "a.log", *ONE_WORKER))
        url_b = stack.enter_context(gunicorn_portal(host_b, tmp_path / "b.log", *ONE_WORKER))
        on_a, on_b = sign_in(url_a, ops, TEST_PASSWORD), sign_in(url_b, ops, TEST_PASSWORD)
        stack.callback(on_a.close)  # before the servers stop: no connection left open
        stack.callback(on_b.close)

        upload(on_a, url_a + page, slot, FIRST, "aadhaar.pdf")
        assert list(objects(s3_server, s3_bucket).values()) == [FIRST]
        assert downloads(on_b, url_b + page) == {"1": FIRST}  # through the other host

        upload(on_b, url_b + page, slot, SECOND, "aadhaar-v2.pdf")  # a new version, on B
        assert downloads(on_a, url_a + page) == {"2": SECOND, "1": FIRST}

        as_admin = sign_in(url_b, admin, TEST_PASSWORD, code=lambda: current_code(app, admin))
        stack.callback(as_admin.close)
        detail = page_of(as_admin.get(f"{url_b}/merchants/{merchant_id}", timeout=10))
        form = detail.select_one("form.export-merchant")
        export = as_admin.post(url_b + form["action"], data=form_values(form), timeout=30)
        with zipfile.ZipFile(io.BytesIO(export.content)) as bundle:
            files = {name: bundle.read(name) for name in bundle.namelist()
                     if name.startswith("documents/")}
        assert sorted(files.values()) == sorted([FIRST, SECOND])

        approve_long_ago(app, merchant_id)
        purge_with_a_worker(host(shared, tmp_path / "worker", document_retention_days=1),
                            app, tmp_path / "worker.log")
        assert objects(s3_server, s3_bucket) == {}
        deleted = on_a.get(f"{url_a}/merchants/{merchant_id}/documents/1", timeout=10)
        assert "under the retention policy" in deleted.text
    for folder in ("a", "b", "worker"):  # no host kept a copy, not even a spooled one
        assert [p for p in (tmp_path / folder).rglob("*") if p.is_file()] == []


def approve_long_ago(app, merchant_id: int) -> None:
    """The merchant reached APPROVED two days ago."""
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        merchant.status = "APPROVED"
        db.session.add(StatusChange(merchant_id=merchant_id, from_status="PENDING_REVIEW",
                                    to_status="APPROVED", source="poll",
                                    at=clock.utcnow() - timedelta(days=2)))
        db.session.commit()


def purge_with_a_worker(settings: Settings, app, log: Path) -> None:
    """``flask worker`` on a host of its own until retention has deleted every file."""
    command = [sys.executable, "-m", "flask", "--app", "app", "worker", "--poll", "0.2"]
    with log.open("wb") as output, subprocess.Popen(  # noqa: S603 (our own command line)
            command, env=portal_environment(settings), cwd=ROOT, stdout=output,
            stderr=subprocess.STDOUT) as worker:
        try:
            wait_for(lambda: all_deleted(app), "the worker's retention job", seconds=120)
        finally:
            worker.send_signal(signal.SIGTERM)
            worker.wait(timeout=30)


def all_deleted(app) -> bool:
    """Whether every document's file is recorded as deleted."""
    with app.app_context():
        return all(d.file_deleted_at is not None
                   for d in db.session.scalars(select(StoredDocument)))
