"""Shared by the job tests: a bulk file of many merchants, queued; reading the import back."""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable

from flask import Flask
from sqlalchemy import select

from portal.app.worker.tasks import Intervals
from portal.core.db import db
from portal.core.models.bulk import BulkImport, BulkImportRow
from portal.core.models.job import Job
from portal.domain.audit.service import Actor
from portal.domain.onboarding.scenarios import gstin_of
from portal.features.bulk import import_job as jobs
from portal.features.bulk import service
from tests.bulk.support import EXAMPLE

#: Who uploads the imports of the job tests.
ADMIN = Actor("admin@example.com")
#: How many periodic jobs a worker adds (each runs once at its start).
SCHEDULES = len(Intervals().schedules())


def many_merchants(count: int, tag: str = "jobs", pan_start: str = "ABCCD") -> bytes:
    """A bulk CSV of ``count`` copies of the example's first merchant, each its own id (``tag``
    and a number) and PAN (``pan_start`` and a number), and the GSTIN of that PAN: a GSTIN of
    another PAN is refused before sending."""
    with EXAMPLE.open(newline="") as handle:
        reader = csv.DictReader(handle)
        template, header = next(reader), reader.fieldnames or []
    out = io.StringIO()
    writer = csv.DictWriter(out, header, lineterminator="\n")
    writer.writeheader()
    pans = {n: f"{pan_start}{n:04d}E" for n in range(1, count + 1)}
    writer.writerows({**template, "externalOnboardingId": f"{tag}-{n:03d}",
                      "panNumber": pan, "gstNumber": gstin_of(pan)} for n, pan in pans.items())
    return out.getvalue().encode()


def queue_import(app: Flask, count: int) -> int:
    """Upload ``count`` merchants as the page does (nothing runs yet); the import's id."""
    with app.app_context():
        return service.submit(many_merchants(count), "merchants.csv", ADMIN).id


def stored_import(app: Flask, import_id: int) -> BulkImport:
    """The import as stored now, detached."""
    with app.app_context():
        found = db.session.get(BulkImport, import_id)
        assert found is not None
        db.session.expunge(found)
        return found


def stored_rows(app: Flask, import_id: int) -> list[BulkImportRow]:
    """The import's rows in file order, detached."""
    with app.app_context():
        found = list(db.session.scalars(select(BulkImportRow).where(
            BulkImportRow.import_id == import_id).order_by(BulkImportRow.number)))
        db.session.expunge_all()
        return found


def stored_jobs(app: Flask, kind: str) -> list[Job]:
    """Every job of ``kind``, oldest first, detached."""
    with app.app_context():
        found = list(db.session.scalars(select(Job).where(Job.kind == kind).order_by(Job.id)))
        db.session.expunge_all()
        return found


def wait_for(check: Callable[[], bool], what: str, seconds: float = 120) -> None:
    """Poll ``check`` until it holds (a progress condition, never a fixed wait)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.1)


def taken_over_and_finished(app: Flask, import_id: int, rows: int,
                            resumed: int) -> tuple[BulkImport, list[BulkImportRow]]:
    """Check that an import a killed worker left was finished: each of its ``rows`` ended once,
    in file order, awaiting documents, ``resumed`` of them resumed (their merchants existed) and
    every other created once; the import and its rows."""
    done = stored_import(app, import_id)
    assert (done.state, done.done, done.total) == ("finished", rows, rows)
    assert done.counts == {"created": rows - resumed, "resumed": resumed,
                           "completed": 0, "awaiting_documents": rows, "outcome_unknown": 0,
                           "linked": 0, "failed": 0}
    stored = stored_rows(app, import_id)
    assert [r.number for r in stored] == list(range(2, rows + 2))
    assert {r.state for r in stored} == {"awaiting_documents"}
    return done, stored


def stop_after(monkeypatch, rows: int, then) -> None:
    """Call ``then()`` once, when the worker has stored at least ``rows`` rows' outcomes."""
    record_rows = jobs._record_rows
    stored: list[int] = []

    def record_and_maybe_stop(progress, ended):
        state = record_rows(progress, ended)
        before = len(stored)
        stored.extend(1 for _ in ended)
        if before < rows <= len(stored):
            then()
        return state

    monkeypatch.setattr("portal.features.bulk.import_job._record_rows", record_and_maybe_stop)
