"""Idempotency-Key on every POST: a repeat within 24 hours answers as the first time and does
nothing again; the same key with another body is a 422; a day later the key is free again."""

from __future__ import annotations

from sqlalchemy import func, select

from portal.core.db import db
from portal.core.models import AuditEvent, Merchant
from tests.api.support import EVERY_SCOPE, Api, new_merchant_body


def merchants(app) -> int:
    """How many merchants the portal holds."""
    with app.app_context():
        return db.session.scalar(select(func.count(Merchant.id))) or 0


def test_a_repeat_answers_as_the_first_time_and_creates_nothing(app, api: Api):
    body = new_merchant_body()
    first = api.post("/merchants", body, idempotency_key="signup-41")
    again = api.post("/merchants", body, idempotency_key="signup-41")
    assert first.status_code == again.status_code == 201
    assert again.json == first.json and again.headers["Location"] == first.headers["Location"]
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert merchants(app) == 1
    with app.app_context():
        assert db.session.scalar(select(func.count(AuditEvent.id)).where(
            AuditEvent.action == "merchant.start")) == 1


def test_a_refusal_is_given_again_too(api: Api):
    body = {"externalOnboardingId": "bad id", "panNumber": "ABCCE1234F"}
    first = api.post("/merchants", body, idempotency_key="k-1")
    again = api.post("/merchants", body, idempotency_key="k-1")
    assert first.status_code == again.status_code == 422 and again.json == first.json


def test_the_same_key_with_another_body_is_a_422(app, api: Api):
    api.post("/merchants", new_merchant_body(), idempotency_key="signup-42")
    other = api.post("/merchants", new_merchant_body(), idempotency_key="signup-42")
    assert other.status_code == 422
    assert "different request" in other.json["detail"]
    assert merchants(app) == 1


def test_keys_are_per_api_key(app, client, issue_key, api: Api):
    other = Api(client, issue_key(*EVERY_SCOPE))
    api.post("/merchants", new_merchant_body(), idempotency_key="same")
    assert other.post("/merchants", new_merchant_body(), idempotency_key="same"
                      ).status_code == 201
    assert merchants(app) == 2


def test_a_day_later_the_key_runs_again(app, api: Api, portal_clock):
    body = new_merchant_body()
    api.post("/merchants", body, idempotency_key="signup-43")
    portal_clock.advance(24 * 3600 + 1)
    later = api.post("/merchants", body, idempotency_key="signup-43")
    assert "Idempotent-Replayed" not in later.headers
    assert later.status_code == 422  # it ran: the id is the first merchant's now
