"""What a webhook tells beyond the status, kept only once a status read vouches for it
(docs/gateway-contract.md, "Webhook facts to keep"): MERCHANT_STATUS_ACCEPTED's merchant_id,
MERCHANT_PENDENCY_STATUS_UPDATED's pendency, shown on the status page in words."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.app.worker.sync import sync_once
from portal.core.clients import onboarding_client
from portal.core.config import SETTINGS_EXTENSION, current_settings
from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.core.models.pendency import MerchantPendency
from portal.core.models.webhook_event import WebhookEvent
from tests.support.accounts import AuthActions
from tests.support.rows import stored
from tests.verification.support import backend_of, onboard
from tests.webhooks.support import _post

MID = "UCIC0000004217"


def accepted(onboarding_id: str, mid: str = MID, event_id: str = "evt_acc") -> bytes:
    return json.dumps({"event_id": event_id, "onboarding_id": onboarding_id,
                       "onboarding_status": "ACCEPTED", "event_timestamp": "1767600000000",
                       "status": "MERCHANT_STATUS_ACCEPTED", "merchant_id": mid}).encode()


def pendency(onboarding_id: str, event_id: str, status: str = "OPEN",
             at: str = "1767600000000", sub: str = "BANK_STATEMENT") -> bytes:
    return json.dumps({
        "event_id": event_id, "onboarding_id": onboarding_id, "onboarding_status": "RFI",
        "event_timestamp": at, "status": "MERCHANT_PENDENCY_STATUS_UPDATED",
        "pendency_info_category": "DOCUMENT", "pendency_info_sub_category": sub,
        "pendency_info_reason": "Statement older than 3 months",
        "pendency_info_status": status, "pendency_info_creation_time": "1767500000000",
        "pendency_info_cards_approval_blocking": "true",
        "pendency_info_mca_approval_blocking": "false"}).encode()


@pytest.fixture
def merchant_id(app) -> int:
    """A merchant at PENDING_VERIFICATION."""
    return onboard(app)


def in_review(app, sandbox, merchant_id: int) -> str:
    """The sandbox has the merchant in review; its onboarding id."""
    onboarding_id = stored(app, merchant_id).onboarding_id
    backend_of(sandbox).complete_verification(onboarding_id)
    return onboarding_id


def mid_audits(app) -> list[int | None]:
    """The merchants whose MID was kept, one per audit entry."""
    with app.app_context():
        return list(db.session.scalars(select(AuditEvent.merchant_id).where(
            AuditEvent.action == "merchant.gateway_mid")))


def test_the_mid_waits_for_a_status_read_that_says_approved(app, client, sandbox, merchant_id):
    onboarding_id = in_review(app, sandbox, merchant_id)
    assert _post(client, accepted(onboarding_id)).status_code == 200  # a hint, early
    assert (stored(app, merchant_id).status, stored(app, merchant_id).gateway_mid) == (
        "PENDING_REVIEW", None)
    with app.app_context():
        outcome = db.session.scalars(select(WebhookEvent.outcome)).one()
    assert "kept back until a status read says APPROVED" in outcome

    backend_of(sandbox).finish_review(onboarding_id)  # now the gateway approves
    with app.app_context():
        sync_once(onboarding_client(current_settings()))
    merchant = stored(app, merchant_id)
    assert (merchant.status, merchant.gateway_mid) == ("APPROVED", MID)
    assert mid_audits(app) == [merchant_id]


def test_a_forged_acceptance_never_stores_a_mid(app, client, sandbox, merchant_id):
    onboarding_id = in_review(app, sandbox, merchant_id)
    _post(client, accepted(onboarding_id, "FORGED123"))
    with app.app_context():
        sync_once(onboarding_client(current_settings()))  # the gateway still reviews
    assert stored(app, merchant_id).gateway_mid is None
    assert mid_audits(app) == []


def test_an_acceptance_after_the_approval_was_read_stores_the_mid_once(app, client, sandbox,
                                                                       merchant_id):
    onboarding_id = in_review(app, sandbox, merchant_id)
    backend_of(sandbox).finish_review(onboarding_id)
    with app.app_context():
        sync_once(onboarding_client(current_settings()))
    assert stored(app, merchant_id).status == "APPROVED"
    _post(client, accepted(onboarding_id))
    _post(client, accepted(onboarding_id, "UCIC9999999999", event_id="evt_later"))
    assert stored(app, merchant_id).gateway_mid == MID  # set once: the first confirmed
    assert mid_audits(app) == [merchant_id]


@pytest.mark.parametrize("mid", ["", "has space", "x" * 65, "<script>"])
def test_a_merchant_id_the_credentials_would_refuse_is_not_kept(app, client, sandbox,
                                                                merchant_id, mid):
    onboarding_id = in_review(app, sandbox, merchant_id)
    backend_of(sandbox).finish_review(onboarding_id)
    _post(client, accepted(onboarding_id, mid))
    assert (stored(app, merchant_id).status, stored(app, merchant_id).gateway_mid) == (
        "APPROVED", None)


def pendencies(app) -> list[MerchantPendency]:
    with app.app_context():
        rows = list(db.session.scalars(select(MerchantPendency).order_by(MerchantPendency.id)))
        db.session.expunge_all()
        return rows


def test_a_pendency_is_kept_once_and_shown_in_words(app, client, sandbox, merchant_id):
    onboarding_id = in_review(app, sandbox, merchant_id)
    body = pendency(onboarding_id, "evt_p1")
    assert _post(client, body).status_code == 200
    assert _post(client, body).status_code == 200  # delivered again: nothing more
    [row] = pendencies(app)
    assert (row.category, row.sub_category, row.status) == ("DOCUMENT", "BANK_STATEMENT", "OPEN")
    assert (row.cards_approval_blocking, row.mca_approval_blocking) == (True, False)
    assert row.raised_at.isoformat() == "2026-01-04T04:13:20+00:00"

    AuthActions(app, client).login("ops")
    page = client.get(f"/merchants/{merchant_id}/status")
    cells = {td["data-label"]: td.get_text(" ", strip=True)
             for td in _soup(page).select("table.pendencies tbody tr td")}
    assert cells == {
        "What": "Document: Bank statement",
        "Where it stands": "Open: the gateway is waiting for it It holds up the cards approval.",
        "The gateway's reason": "Statement older than 3 months",
        "Raised": "2026-01-04 04:13 UTC"}


def test_the_newest_report_of_a_pendency_says_where_it_stands(app, client, sandbox,
                                                              merchant_id):
    onboarding_id = in_review(app, sandbox, merchant_id)
    _post(client, pendency(onboarding_id, "evt_new", "RESOLVED", at="1767700000000"))
    _post(client, pendency(onboarding_id, "evt_old", "OPEN", at="1767600000000"))  # late
    _post(client, pendency(onboarding_id, "evt_other", sub="PAN", at="1767650000000"))
    assert len(pendencies(app)) == 3
    AuthActions(app, client).login("ops")
    rows = _soup(client.get(f"/merchants/{merchant_id}/status")).select("tr.pendency")
    assert [(r.select_one(".what").get_text(strip=True), r["data-status"]) for r in rows] == [
        ("Document: Bank statement", "RESOLVED"), ("Document: PAN card", "OPEN")]


def test_a_pendency_waits_for_its_status_read(app, client, sandbox, settings, merchant_id,
                                              closed_port):
    onboarding_id = in_review(app, sandbox, merchant_id)
    app.extensions[SETTINGS_EXTENSION] = settings.with_changes(onboarding_url=closed_port)
    _post(client, pendency(onboarding_id, "evt_p"))
    assert pendencies(app) == []  # the read failed: nothing vouches for the event yet
    app.extensions[SETTINGS_EXTENSION] = settings
    with app.app_context():
        sync_once(onboarding_client(current_settings()))
    assert [p.status for p in pendencies(app)] == ["OPEN"]


def test_the_merchants_data_export_holds_its_pendencies(app, client, sandbox, merchant_id):
    _post(client, pendency(in_review(app, sandbox, merchant_id), "evt_x"))
    AuthActions(app, client).login("admin")
    response = client.post(f"/merchants/{merchant_id}/export")
    record = json.loads(zipfile.ZipFile(io.BytesIO(response.data)).read("merchant.json"))
    response.close()
    assert [(p["category"], p["sub_category"], p["status"]) for p in record["pendencies"]] == [
        ("DOCUMENT", "BANK_STATEMENT", "OPEN")]


def test_an_event_about_a_merchant_the_portal_does_not_know_keeps_nothing(app, client):
    _post(client, pendency("pg_onboard_nobody", "evt_n"))
    _post(client, accepted("pg_onboard_nobody"))
    assert pendencies(app) == [] and mid_audits(app) == []


def _soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "html.parser")
