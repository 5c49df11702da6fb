"""The admins' pages of the webhooks out: an endpoint added with its events ticked and its
secret shown once (kept encrypted), a refused address said beside its field, a secret rotated,
an endpoint disabled, the delivery log in words with "send again"; admins only, CSRF checked,
every action audited."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import text

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.partner_webhook import PartnerEndpoint
from portal.domain.partner_events.catalogue import EventType
from tests.support.accounts import AuthActions
from tests.support.partner_webhooks import move, stored_deliveries
from tests.support.team import audited, errors_beside, make_merchant, words

BASE = "/admin/webhooks-out/"
STATUS = EventType.MERCHANT_STATUS_CHANGED.value


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Loopback allowed, as in tests and development."""
    return settings.with_changes(website_check_allow_loopback=True)


def add(client, url: str, *types: str, description: str = "Stayhub"):
    """Post the new-endpoint form; the answer and its page, parsed."""
    answer = client.post(BASE, data={"url": url, "description": description,
                                     "event_types": list(types)})
    return answer, BeautifulSoup(answer.data, "html.parser")


def shown_secret(page: BeautifulSoup) -> str:
    return page.select_one("[data-secret]").get_text(strip=True)


def test_an_endpoint_is_added_with_its_secret_shown_once_and_stored_encrypted(app, auth, client):
    auth.login("admin")
    answer, page = add(client, "http://127.0.0.1:8999/hooks", STATUS)
    assert answer.status_code == 200
    secret = shown_secret(page)
    assert secret.startswith("whsec_")
    row = page.select_one("table.partner-endpoints tbody tr")
    assert "A merchant's onboarding status changed" in words(row)
    assert "merchant.status_changed" not in words(row)  # words, not codes
    assert secret not in client.get(BASE).get_data(as_text=True)  # shown this once
    with app.app_context():
        stored = db.session.execute(text("SELECT secret FROM partner_endpoints")).scalar()
    assert secret not in stored  # a Fernet token of it
    [entry] = audited(app, "partner_webhook.add")
    assert entry.detail["events"] == [STATUS]


def test_events_are_labelled_checkboxes(auth, client):
    auth.login("admin")
    page = BeautifulSoup(client.get(BASE).data, "html.parser")
    boxes = page.select("input[type=checkbox][name=event_types]")
    assert {box["value"] for box in boxes} == {t.value for t in EventType}
    for box in boxes:
        assert page.select_one(f'label[for="{box["id"]}"]').get_text(strip=True)


def test_a_private_address_or_no_event_is_said_beside_its_field(auth, client):
    auth.login("admin")
    answer, page = add(client, "http://10.1.2.3/hooks", STATUS)
    assert answer.status_code == 400
    assert "not a public one" in " ".join(errors_beside(page, "url"))
    assert page.select_one("#url")["value"] == "http://10.1.2.3/hooks"
    _, page = add(client, "http://127.0.0.1:8999/hooks")
    assert "Choose at least one event" in words(page.select_one("#event_types-errors"))


def test_rotating_shows_the_new_secret_and_says_until_when_the_old_one_signs(app, auth, client):
    auth.login("admin")
    _, page = add(client, "http://127.0.0.1:8999/hooks", STATUS)
    first = shown_secret(page)
    endpoint = page.select_one("tr[data-endpoint]")["data-endpoint"]
    page = BeautifulSoup(client.post(f"{BASE}{endpoint}/rotate").data, "html.parser")
    assert shown_secret(page) not in ("", first)
    assert "The previous secret still signs every event until" in words(page)
    assert "secret being rotated" in words(page.select_one(".endpoint-state"))
    with app.app_context():  # the rotation's day is over (a day on the clock would sign out)
        db.session.get(PartnerEndpoint, int(endpoint)).previous_expires_at = clock.utcnow()
        db.session.commit()
    page = BeautifulSoup(client.get(BASE).data, "html.parser")
    assert words(page.select_one(".endpoint-state")) == "Active"  # the rotation is over
    assert len(audited(app, "partner_webhook.rotate")) == 1


def test_disabling_stops_it_and_the_log_sends_again_in_words(app, auth, client):
    auth.login("admin")
    _, page = add(client, "http://127.0.0.1:8999/hooks", STATUS)
    endpoint = page.select_one("tr[data-endpoint]")["data-endpoint"]
    move(app, make_merchant(app, "Lotus Traders", status="PENDING_REVIEW"), "APPROVED")

    log = BeautifulSoup(client.get(f"{BASE}{endpoint}/deliveries").data, "html.parser")
    row = log.select_one("table.partner-deliveries tbody tr")
    assert "A merchant's onboarding status changed" in words(row)
    assert words(row.select_one(".delivery-state")) == "Waiting for its first try"
    assert words(row.select_one(".delivery-answer")) == "Not tried yet"
    delivery = row["data-delivery"]
    answer = client.post(f"{BASE}{endpoint}/deliveries/{delivery}/send-again",
                         follow_redirects=True)
    assert "will be sent again" in answer.get_data(as_text=True)
    assert len(stored_deliveries(app)) == 2
    assert len({d.event_id for d in stored_deliveries(app)}) == 1

    answer = client.post(f"{BASE}{endpoint}/disable", follow_redirects=True)
    assert "Nothing more is sent to" in answer.get_data(as_text=True)
    page = BeautifulSoup(answer.data, "html.parser")
    assert words(page.select_one(".endpoint-state")).startswith("Disabled")
    assert [len(audited(app, a)) for a in ("partner_webhook.replay",
                                           "partner_webhook.disable")] == [1, 1]


def test_only_admins_open_the_pages(auth, client):
    auth.login("ops")
    assert client.get(BASE).status_code == 403
    assert client.post(BASE, data={"url": "http://127.0.0.1:1/"}).status_code == 403


def test_a_form_without_its_csrf_token_is_refused(csrf_app, csrf_client):
    AuthActions(csrf_app, csrf_client).login("admin")
    answer = csrf_client.post(BASE, data={"url": "http://127.0.0.1:1/", "event_types": [STATUS]})
    assert answer.status_code == 400
    with csrf_app.app_context():
        assert db.session.execute(text("SELECT count(*) FROM partner_endpoints")).scalar() == 0
