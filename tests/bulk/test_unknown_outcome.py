"""A bulk row whose create was sent and never answered ends as "outcome unknown" (may or may
not have been created), its own bucket of the import's counts, with a link to the wizard's
create step; never as done. Once its merchant is linked, the next sync moves it on."""

from __future__ import annotations

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.core.models.bulk import BulkImport, ImportState
from portal.core.models.merchant import CreateState, Merchant
from portal.features.bulk.settle import settle_linked_rows
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.bulk.support import EXAMPLE, creates, finished, upload


def admin_import(auth, client, sandbox) -> tuple[str, dict]:
    """Import the example as an admin, the first create's answer lost; (page, progress)."""
    auth.login("admin")
    sandbox.state.faults.set(Fault(FaultKind.LOST, operation="create_onboarding", times=1))
    location = upload(client, EXAMPLE.read_bytes()).headers["Location"]
    return location, finished(client, location)


def test_a_create_without_an_answer_is_its_own_bucket_and_links_to_the_wizard(
        app, auth, client, sandbox):
    location, progress = admin_import(auth, client, sandbox)
    assert progress["state"] == "finished"
    counts = progress["counts"]
    assert (counts["outcome_unknown"], counts["failed"], counts["awaiting_documents"]) == (
        1, 0, 9)
    [unknown] = [p for p in progress["problems"] if p["state"] == "outcome_unknown"]
    assert "may or may not have been created" in unknown["reason"]
    page = BeautifulSoup(client.get(location).data, "html.parser")
    assert "10 of 10 rows run" in page.select_one("#bulk-progress-text").get_text(" ",
                                                                                  strip=True)
    assert page.select_one("[data-count='outcome_unknown']").get_text() == "1"
    row = page.select_one(f"tr[data-row='{unknown['row']}']")
    assert "Outcome unknown: may or may not have been created" in row.get_text(" ", strip=True)
    link = row.select_one("a.bulk-reconcile")
    assert link["href"] == f"/merchants/{unknown['merchantId']}/steps/create"
    assert creates(sandbox) == 10  # the lost one landed; it is never sent again from here

    # retried from the wizard's create step (same id: refused as used, so to be linked)...
    client.post(f"/merchants/{unknown['merchantId']}/steps/create/retry")
    with app.app_context():
        assert settle_linked_rows() == 0  # not created yet as far as the portal knows
        merchant = db.session.get(Merchant, unknown["merchantId"])
        merchant.create_state, merchant.onboarding_id = CreateState.CREATED, "pg_onboard_ab12"
        db.session.commit()  # ... and linked, as a webhook or ops link it
        assert settle_linked_rows() == 1
        assert settle_linked_rows() == 0
        job = db.session.scalar(select(BulkImport))
        assert (job.counts["outcome_unknown"], job.counts["linked"]) == (0, 1)
    page = BeautifulSoup(client.get(location).data, "html.parser")
    row = page.select_one(f"tr[data-row='{unknown['row']}']")
    assert "linked to the gateway's record pg_onboard_ab12" in row.get_text(" ", strip=True)
    assert row.select_one("a.bulk-reconcile")["href"].endswith("/steps/business")


def test_a_running_import_is_left_to_its_worker(app, auth, client, sandbox):
    _location, _progress = admin_import(auth, client, sandbox)
    with app.app_context():
        job = db.session.scalar(select(BulkImport))
        job.state = ImportState.RUNNING
        for merchant in db.session.scalars(select(Merchant)):
            merchant.create_state = CreateState.CREATED
        db.session.commit()
        assert settle_linked_rows() == 0


def test_a_row_linked_by_the_sync_is_credited_to_the_importing_admin(app, auth, client,
                                                                     sandbox):
    """The sync that settles a linked row runs as no one; the entry names who started the
    import (jobs pass who started them)."""
    _location, progress = admin_import(auth, client, sandbox)
    [unknown] = [p for p in progress["problems"] if p["state"] == "outcome_unknown"]
    with app.app_context():
        merchant = db.session.get(Merchant, unknown["merchantId"])
        merchant.create_state, merchant.onboarding_id = CreateState.CREATED, "pg_onboard_ab12"
        db.session.commit()
        assert settle_linked_rows() == 1
        job = db.session.scalar(select(BulkImport))
        [entry] = db.session.scalars(select(AuditEvent).where(
            AuditEvent.action == "bulk.import.linked"))
        assert (entry.actor_label, entry.actor_id) == (job.started_by, job.started_by_id)
        assert entry.actor_label == "admin@example.com"
