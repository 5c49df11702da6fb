"""A NUL or another control character in any typed value is refused beside its field, on
SQLite and PostgreSQL alike (PostgreSQL cannot store a NUL: these pages answered 500), and
nothing typed is stored."""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import func, select

from portal.app.factory import create_app
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.webhook_event import WebhookEvent
from portal.core.typed_text import CONTROL_CHARACTER, control_character_problem
from portal.domain.onboarding import scenarios
from tests.outbox.support import (
    app,
    database_url,
    migrated_any_database_url,
    migrated_postgres_template,
)

__all__ = ["app", "database_url", "migrated_any_database_url", "migrated_postgres_template"]

#: What the tests type: a NUL and other control characters inside ordinary text.
HOSTILE = ["Chai\x00Point", "Chai\x1bPoint", "Chai\x7fPoint", "Chai\x85Point"]


def errors_beside(response, field_id: str) -> list[str]:
    """The messages the page shows beside the field ``field_id``."""
    soup = BeautifulSoup(response.data, "html.parser")
    found = soup.select_one(f"#{field_id}-errors")
    return [li.get_text(strip=True) for li in found.select("li")] if found else []


@pytest.mark.parametrize("value", ["", "plain text", "tab\there", "two\nlines\r\n", "Café ✓"])
def test_ordinary_text_passes(value):
    assert control_character_problem(value) is None


@pytest.mark.parametrize("value", [*HOSTILE, "\x00", "a\x08b", "a\x0bb", "a\x9fb"])
def test_control_characters_are_refused_in_words(value):
    assert control_character_problem(value) == CONTROL_CHARACTER


@pytest.mark.parametrize("value", HOSTILE)
def test_sign_in_refuses_a_control_character_beside_the_email(client, value):
    response = client.post("/login", data={"email": f"ops{value}@example.com",
                                           "password": "anything at all"})
    assert response.status_code == 200
    assert errors_beside(response, "email") == [CONTROL_CHARACTER]


def test_the_merchant_search_refuses_a_control_character_beside_the_box(app, client, auth):
    auth.login("ops")
    response = client.get("/merchants", query_string={"q": "Chai\x00Point"})
    assert response.status_code == 400
    assert errors_beside(response, "q") == [CONTROL_CHARACTER]


def test_a_new_merchant_with_a_control_character_is_refused_and_not_stored(app, client, auth):
    auth.login("ops")
    data = {**scenarios.form_data(scenarios.HAPPY, "create"), "displayName": "Chai\x00Point",
            "action": "draft"}
    response = client.post("/merchants/new", data=data)
    assert response.status_code == 200
    assert errors_beside(response, "displayName") == [CONTROL_CHARACTER]
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Merchant)) == 0


def test_a_webhook_naming_control_characters_is_stored_without_them(settings):
    app = create_app(settings.with_changes(webhook_secrets=()))  # unsigned: anyone may post
    body = json.dumps({"event_id": "evt-\x00-1", "status": "IN_PROGRESS\x00",
                       "onboarding_id": "pg_onboard_\x00ab12"}).encode()
    try:
        response = app.test_client().post("/webhooks/onboarding", data=body,
                                          content_type="application/json")
        assert response.status_code == 200
        with app.app_context():
            [event] = db.session.scalars(select(WebhookEvent)).all()
            assert (event.event_name, event.onboarding_id) == ("IN_PROGRESS", "pg_onboard_ab12")
            assert event.dedup_key.startswith("sha256:")
    finally:
        db.engine(app).dispose()
