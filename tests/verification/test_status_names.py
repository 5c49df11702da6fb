"""Status names of the gateway's other pages (docs/gateway-facts.md A3: UNDER_REVIEW, ACCEPTED,
VERIFICATION_COMPLETE, a ``merchantStatus`` field) map onto the contract's machine wherever a
status comes in; a name the portal does not know is stored and shown, and moves nothing."""

from __future__ import annotations

import json

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.core.models.webhook_event import WebhookEvent
from tests.support.rows import stored
from tests.verification.support import backend_of, onboard


def status_page(client, merchant_id: int) -> BeautifulSoup:
    response = client.get(f"/merchants/{merchant_id}/status")
    assert response.status_code == 200
    return BeautifulSoup(response.data, "html.parser")


def name_statuses(sandbox, names: dict[str, str], key: str = "onboardingStatus") -> None:
    """Make the sandbox answer and notify with these status names, under ``key``."""
    sandbox.state.config.statusNames = names
    sandbox.state.config.statusKey = key


def test_other_pages_names_and_merchant_status_map_onto_the_machine(app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = onboard(app)
    name_statuses(sandbox, {"PENDING_REVIEW": "UNDER_REVIEW", "APPROVED": "ACCEPTED"},
                  "merchantStatus")
    backend = backend_of(sandbox)
    onboarding_id = stored(app, merchant_id).onboarding_id
    backend.complete_verification(onboarding_id)

    soup = status_page(client, merchant_id)
    assert soup.select_one(".onboarding-status")["data-status"] == "PENDING_REVIEW"
    assert soup.select_one(".gateway-status").get_text() == \
        "The gateway calls this status “Under review”."
    assert stored(app, merchant_id).gateway_status == "UNDER_REVIEW"

    backend.finish_review(onboarding_id)
    soup = status_page(client, merchant_id)
    assert soup.select_one(".onboarding-status")["data-status"] == "APPROVED"
    assert soup.select_one(".gateway-status")["data-gateway-status"] == "ACCEPTED"


def test_verification_complete_is_pending_review(app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = onboard(app)
    name_statuses(sandbox, {"PENDING_REVIEW": "VERIFICATION_COMPLETE"})
    backend_of(sandbox).complete_verification(stored(app, merchant_id).onboarding_id)
    soup = status_page(client, merchant_id)
    assert soup.select_one(".onboarding-status")["data-status"] == "PENDING_REVIEW"


def test_an_unknown_status_is_shown_never_a_500_never_a_move(app, client, auth, sandbox,
                                                            every_answer_dialect):
    auth.login("ops")
    merchant_id = onboard(app)
    name_statuses(sandbox, {"PENDING_REVIEW": "ON_HOLD"})
    backend_of(sandbox).complete_verification(stored(app, merchant_id).onboarding_id)

    soup = status_page(client, merchant_id)
    assert soup.select_one(".onboarding-status")["data-status"] == "PENDING_VERIFICATION"
    assert soup.select_one(".gateway-status").get_text() == (
        "The gateway reports the status ON_HOLD, which the portal does not know; it keeps the "
        "last status it knows, Pending verification (waiting for the merchant's verification).")
    assert soup.select_one("[data-item='vkyc']").get_text() == {  # the rest is stored
        "contract": "Complete", "docs": "Done, under review by the gateway"}[every_answer_dialect]
    with app.app_context():
        audit = db.session.scalars(select(AuditEvent).where(
            AuditEvent.outcome == "unknown status")).first()
        assert audit is not None and audit.detail["read"] == "ON_HOLD"

    name_statuses(sandbox, {})  # the gateway says a status the portal knows again
    soup = status_page(client, merchant_id)
    assert soup.select_one(".onboarding-status")["data-status"] == "PENDING_REVIEW"
    assert soup.select_one(".gateway-status") is None


def test_webhooks_with_the_other_names_end_at_the_contracts_status(app, sandbox, portal_server):
    merchant_id = onboard(app)
    name_statuses(sandbox, {"PENDING_REVIEW": "UNDER_REVIEW", "APPROVED": "ACCEPTED"})
    backend = backend_of(sandbox)
    backend.complete_verification(stored(app, merchant_id).onboarding_id)
    backend.tick()  # the review decides; its webhooks reach the portal over loopback

    merchant = stored(app, merchant_id)
    assert (merchant.status, merchant.gateway_status) == ("APPROVED", "ACCEPTED")
    with app.app_context():
        events = list(db.session.scalars(select(WebhookEvent).order_by(WebhookEvent.id)))
    said = {json.loads(e.body)["onboarding_status"] for e in events}
    assert {"UNDER_REVIEW", "ACCEPTED"} <= said
    assert any("the event said ACCEPTED (APPROVED)" in e.outcome for e in events), \
        [e.outcome for e in events]
