"""Forged webhooks change nothing (issue 35, item 2): with the real gateway's setup (no secret
to check, as docs/operator/real-gateway.md says), an unsigned event can only make the portal
read the status.
What an event carries (a MID, a pendency's words) is kept only from a verified one: its digest
matched a configured secret, or it came from a configured source address. Checked in the
database, on the pages (credentials, status, notices) and in the mail sink."""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.app.factory import create_app
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.pendency import MerchantPendency
from portal.core.models.webhook_event import WebhookEvent
from portal.gateway.onboarding.hmac import hmac_digest
from tests.support.accounts import AuthActions
from tests.support.mail import mail_sink, mailing
from tests.support.rows import stored
from tests.support.settings import API_SECRET
from tests.support.team import make_merchant, notices_of
from tests.support.workers import run_worker
from tests.verification.support import backend_of, onboard

__all__ = ["mail_sink"]

OWNER = "owner@example.com"
FORGED_MID = "ATTACKER1"
PHISHING = "Your account is frozen: sign in at https://payglocal-verify.example/login now"
GATEWAY_ADDRESS = "203.0.113.7"


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The real gateway's setup: no webhook secret to check; notices mailed to the sink."""
    return mailing(settings, mail_sink).with_changes(webhook_secrets=())


def accepted(onboarding_id: str, mid: str = FORGED_MID, event_id: str = "evt_a") -> bytes:
    return json.dumps({"event_id": event_id, "onboarding_id": onboarding_id,
                       "onboarding_status": "ACCEPTED", "event_timestamp": "1767600000000",
                       "status": "MERCHANT_STATUS_ACCEPTED", "merchant_id": mid}).encode()


def pendency(onboarding_id: str, reason: str = PHISHING, event_id: str = "evt_p") -> bytes:
    return json.dumps({
        "event_id": event_id, "onboarding_id": onboarding_id, "onboarding_status": "APPROVED",
        "event_timestamp": "1767600000000", "status": "MERCHANT_PENDENCY_STATUS_UPDATED",
        "pendency_info_category": "COMPLIANCE", "pendency_info_sub_category": "ACCOUNT",
        "pendency_info_reason": reason, "pendency_info_status": "OPEN",
        "pendency_info_creation_time": "1767500000000",
        "pendency_info_cards_approval_blocking": "true",
        "pendency_info_mca_approval_blocking": "true"}).encode()


def post(app, body: bytes, address: str = "127.0.0.1", digest: str | None = None, **headers):
    """Deliver ``body`` from ``address``, with ``digest`` when given."""
    if digest is not None:
        headers["x-gl-digest"] = digest
    return app.test_client().post("/webhooks/onboarding", data=body,
                                  headers={"Content-Type": "application/json", **headers},
                                  environ_base={"REMOTE_ADDR": address})


@pytest.fixture
def approved(app, auth) -> int:
    """An APPROVED merchant with no MID yet, owned by OWNER (who is told of pendencies)."""
    auth.create("ops", OWNER)
    return make_merchant(app, "Lotus Traders", owner=OWNER, status="APPROVED")


def onboarding_id_of(app, merchant_id: int) -> str:
    return stored(app, merchant_id).onboarding_id


def events(app) -> list[WebhookEvent]:
    with app.app_context():
        found = list(db.session.scalars(select(WebhookEvent).order_by(WebhookEvent.id)))
        db.session.expunge_all()
        return found


def pendency_rows(app) -> list[MerchantPendency]:
    with app.app_context():
        return list(db.session.scalars(select(MerchantPendency)))


def page(client, path: str) -> BeautifulSoup:
    response = client.get(path)
    assert response.status_code == 200
    return BeautifulSoup(response.data, "html.parser")


def test_a_forged_acceptance_for_an_approved_merchant_offers_no_mid(app, client, approved):
    assert post(app, accepted(onboarding_id_of(app, approved))).status_code == 200
    assert stored(app, approved).gateway_mid is None
    AuthActions(app, client).login("admin")
    credentials = page(client, f"/merchants/{approved}/payments/credentials")
    assert credentials.select_one("input[name=mid]")["value"] != FORGED_MID
    assert FORGED_MID not in credentials.get_text()
    [event] = events(app)
    assert event.verified_by == "none"
    assert "not verified" in event.outcome


def test_a_forged_pendency_for_an_approved_merchant_is_neither_shown_nor_sent(
        app, client, approved, mail_sink):
    assert post(app, pendency(onboarding_id_of(app, approved))).status_code == 200
    assert pendency_rows(app) == []
    assert notices_of(app, OWNER) == []
    run_worker(app)  # the notices job: nothing to mail
    assert mail_sink.messages() == []
    AuthActions(app, client).login("ops")
    status = page(client, f"/merchants/{approved}/status")
    assert status.select("table.pendencies") == []
    assert "payglocal-verify" not in status.get_text()
    assert "payglocal-verify" not in page(client, "/notices").get_text()


def test_a_forged_pendency_for_a_merchant_in_review_only_reads_the_status(app, sandbox):
    merchant_id = onboard(app)
    backend_of(sandbox).complete_verification(onboarding_id_of(app, merchant_id))
    assert post(app, pendency(onboarding_id_of(app, merchant_id))).status_code == 200
    assert stored(app, merchant_id).status == "PENDING_REVIEW"  # the read did its part
    assert pendency_rows(app) == []
    [event] = events(app)
    assert event.outcome.startswith("status PENDING_REVIEW (moved)")


@pytest.mark.parametrize("sources", [("203.0.113.0/24",), ("198.51.100.1", GATEWAY_ADDRESS)])
def test_deliveries_from_an_unlisted_address_are_refused(settings, sources):
    app = create_app(settings.with_changes(webhook_sources=sources))
    merchant_id = make_merchant(app, "Lotus Traders", status="APPROVED")
    answer = post(app, accepted(onboarding_id_of(app, merchant_id)), address="192.0.2.10")
    assert (answer.status_code, answer.json) == (403, {
        "outcome": "not from a configured source address"})
    assert events(app) == []
    assert stored(app, merchant_id).gateway_mid is None


def test_a_delivery_from_a_listed_address_keeps_what_it_carries(settings):
    app = create_app(settings.with_changes(webhook_sources=("203.0.113.0/24",)))
    merchant_id = make_merchant(app, "Lotus Traders", status="APPROVED")
    body = accepted(onboarding_id_of(app, merchant_id), "UCIC0000004217")
    assert post(app, body, address=GATEWAY_ADDRESS).status_code == 200
    assert stored(app, merchant_id).gateway_mid == "UCIC0000004217"
    [event] = events(app)
    assert (event.verified_by, event.outcome) == ("source", "already APPROVED; the event "
                                                  "said ACCEPTED (APPROVED); merchant id kept")


@pytest.mark.parametrize(("proxies", "status"), [(1, 200), (0, 403)])
def test_the_source_address_is_read_behind_the_trusted_proxies_only(settings, proxies, status):
    app = create_app(settings.with_changes(webhook_sources=(GATEWAY_ADDRESS,),
                                           trusted_proxies=proxies))
    merchant_id = make_merchant(app, "Lotus Traders", status="APPROVED")
    answer = post(app, accepted(onboarding_id_of(app, merchant_id)),
                  **{"X-Forwarded-For": GATEWAY_ADDRESS})  # the proxy on 127.0.0.1 says so
    assert answer.status_code == status


def test_with_both_set_a_listed_address_still_needs_the_digest(settings):
    app = create_app(settings.with_changes(webhook_sources=(GATEWAY_ADDRESS,),
                                           webhook_secrets=(API_SECRET,)))
    merchant_id = make_merchant(app, "Lotus Traders", status="APPROVED")
    body = accepted(onboarding_id_of(app, merchant_id), "UCIC0000004217")
    assert post(app, body, address=GATEWAY_ADDRESS).status_code == 401
    assert post(app, body, address=GATEWAY_ADDRESS,
                digest=hmac_digest(API_SECRET, body)).status_code == 200
    assert [event.verified_by for event in events(app)] == ["digest"]
    assert stored(app, merchant_id).gateway_mid == "UCIC0000004217"


def test_a_signed_pendency_is_kept_and_its_link_does_not_work(settings, mail_sink):
    app = create_app(settings.with_changes(webhook_secrets=(API_SECRET,)))
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    auth = AuthActions(app, client)
    auth.create("ops", OWNER)
    merchant_id = make_merchant(app, "Lotus Traders", owner=OWNER, status="APPROVED")
    body = pendency(onboarding_id_of(app, merchant_id))
    assert post(app, body, digest=hmac_digest(API_SECRET, body)).status_code == 200
    [row] = pendency_rows(app)
    assert row.reason == PHISHING  # kept as the gateway sent it
    shown = "Your account is frozen: sign in at hxxps://payglocal-verify[.]example/login now"
    auth.login("ops", OWNER)
    status = page(client, f"/merchants/{merchant_id}/status")
    reason = status.select_one("table.pendencies td.reason q.gateway-words")
    assert reason.get_text() == shown
    assert status.select("table.pendencies a") == []
    run_worker(app)
    [message] = mail_sink.messages()
    text = message.get_body(("plain",)).get_content()
    assert f"The gateway's words: \u201c{shown}\u201d" in text
    assert "https://payglocal-verify" not in text and "payglocal-verify.example" not in text
