"""/metrics: who may read it, and what it counts (sign-ins, queues; the requests' counters are
tests/web/test_request_metrics.py's)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from portal.app.factory import create_app
from portal.core import clock
from portal.core.db import db
from portal.core.models import Merchant
from portal.core.models.outbox import OutboxItem, OutboxState
from portal.core.models.webhook_event import WebhookEvent
from tests.support.accounts import AuthActions
from tests.support.scrapes import sample, scrape
from tests.support.settings import settings_for

TOKEN = "metrics-token-7c1e"
REMOTE = {"REMOTE_ADDR": "203.0.113.9"}


@pytest.mark.parametrize(("token", "address", "authorization", "status"), [
    ("", "127.0.0.1", None, 200),
    ("", "::1", None, 200),
    ("", "203.0.113.9", None, 404),
    ("", "203.0.113.9", "Bearer ", 404),
    (TOKEN, "203.0.113.9", f"Basic {TOKEN}", 404),
    (TOKEN, "203.0.113.9", None, 404),
    (TOKEN, "203.0.113.9", "Bearer wrong-token", 404),
    (TOKEN, "203.0.113.9", TOKEN, 404),  # the token without the Bearer scheme
    (TOKEN, "203.0.113.9", f"Bearer {TOKEN}", 200),
])
def test_metrics_answer_loopback_or_the_token_holder_only(settings, token, address,
                                                          authorization, status):
    client = create_app(settings.with_changes(metrics_token=token)).test_client()
    headers = {"Authorization": authorization} if authorization is not None else {}
    answer = client.get("/metrics", headers=headers, environ_overrides={"REMOTE_ADDR": address})
    assert answer.status_code == status
    assert ("portal_http_requests_total" in answer.get_data(as_text=True)) == (status == 200)


def test_failed_sign_ins_and_lockouts_are_counted(app, client):
    email = AuthActions(app, client).create("ops")
    before = scrape(client)
    for _ in range(5):  # the fifth failure locks the account
        client.post("/login", data={"email": email, "password": "wrong password"})
    after = scrape(client)

    def grew(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    assert grew("portal_sign_in_failures_total", step="password") == 5
    assert grew("portal_account_lockouts_total") == 1


def test_queue_depths_and_oldest_ages_are_read_from_the_database(app, client, portal_clock):
    now = clock.utcnow()
    with app.app_context():
        merchant = Merchant(external_onboarding_id="EXT-METRICS-1", pan="AAKCM1234Q")
        db.session.add(merchant)
        db.session.flush()
        db.session.add_all([
            OutboxItem(merchant_id=merchant.id, step="business", draft_version=1, payload={},
                       next_attempt_at=now, created_at=now - timedelta(minutes=10)),
            OutboxItem(merchant_id=merchant.id, step="bank", draft_version=1, payload={},
                       next_attempt_at=now, created_at=now - timedelta(minutes=2)),
            OutboxItem(merchant_id=merchant.id, step="owners", draft_version=1, payload={},
                       next_attempt_at=now, created_at=now - timedelta(hours=5),
                       state=OutboxState.SENT),
            WebhookEvent(dedup_key="a", body="{}", received_at=now - timedelta(seconds=90)),
            WebhookEvent(dedup_key="b", body="{}", received_at=now - timedelta(hours=1),
                         processed_at=now),
        ])
        db.session.commit()
    text = scrape(client)
    assert sample(text, "portal_queue_depth", queue="outbox") == 2
    assert sample(text, "portal_queue_oldest_age_seconds", queue="outbox") == 600
    assert sample(text, "portal_queue_depth", queue="webhook_events") == 1
    assert sample(text, "portal_queue_oldest_age_seconds", queue="webhook_events") == 90
    assert sample(text, "portal_webhook_events_received_total") == 2


def test_empty_queues_report_zero(client):
    text = scrape(client)
    assert sample(text, "portal_queue_depth", queue="outbox") == 0
    assert sample(text, "portal_queue_oldest_age_seconds", queue="outbox") == 0


def test_without_a_database_the_process_metrics_are_still_served(sandbox, tmp_path):
    missing = f"sqlite:///{tmp_path / 'no-such-folder' / 'portal.db'}"
    client = create_app(settings_for(missing, sandbox.url, tmp_path)).test_client()
    client.get("/healthz")
    text = scrape(client)
    assert sample(text, "portal_http_requests_total", route="/healthz", method="GET",
                  status="200") >= 1
    assert "portal_queue_depth" not in text
