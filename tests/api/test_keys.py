"""The admins' page of API keys: a token shown once and kept as a hash, revoked, its last use
shown; a key with the payments scope opens only once a second admin approves it."""

from __future__ import annotations

from datetime import timedelta

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core import clock
from portal.core.db import db
from portal.core.models import ApiKey, ApprovalRequest
from portal.domain.api import keys
from tests.api.support import Api
from tests.support.approvals import decide_all


def create_key(client, name: str, *scopes: str, reason: str = "", expires_on: str = ""):
    """Post the new-key form; the page it answers with, parsed."""
    answer = client.post("/admin/api-keys/", data={
        "name": name, "scopes": list(scopes), "reason": reason, "expires_on": expires_on})
    return answer, BeautifulSoup(answer.data, "html.parser")


def shown_token(page: BeautifulSoup) -> str:
    """The token the page shows once."""
    return page.select_one("[data-token]").get_text(strip=True)


def row(page: BeautifulSoup, name: str):
    """The keys table's row of ``name``."""
    return page.select_one(f'tr[data-key="{name}"]')


def test_the_token_is_shown_once_and_only_its_hash_is_kept(app, auth, client):
    auth.login("admin")
    answer, page = create_key(client, "Stayhub", "merchants:read")
    assert answer.status_code == 200
    token = shown_token(page)
    assert token.startswith("pop_")
    again = BeautifulSoup(client.get("/admin/api-keys/").data, "html.parser")
    assert token not in again.get_text() and again.select_one("[data-token]") is None
    with app.app_context():
        key = db.session.scalar(select(ApiKey))
        assert token.split("_")[2] not in key.secret_hash
        assert key.secret_hash == keys.digest(token.split("_", 2)[2])
    assert Api(app.test_client(), token).get("/merchants").status_code == 200


def test_last_use_is_shown_and_a_revoked_key_opens_nothing(app, auth, client):
    auth.login("admin")
    token = shown_token(create_key(client, "Stayhub", "merchants:read")[1])
    page = BeautifulSoup(client.get("/admin/api-keys/").data, "html.parser")
    assert row(page, "Stayhub").select_one(".key-used").get_text(strip=True) == "Never"
    api = Api(app.test_client(), token)
    assert api.get("/merchants").status_code == 200
    page = BeautifulSoup(client.get("/admin/api-keys/").data, "html.parser")
    assert row(page, "Stayhub").select_one(".key-used").get_text(strip=True).endswith("UTC")
    form = row(page, "Stayhub").select_one("form")
    client.post(form["action"], data={})
    answer = api.get("/merchants")
    assert answer.status_code == 401 and answer.headers["WWW-Authenticate"].startswith("Bearer")


def test_bad_inputs_are_shown_beside_their_fields_with_what_was_typed(auth, client):
    auth.login("admin")
    create_key(client, "Stayhub", "merchants:read")
    answer, page = create_key(client, "Stayhub", "merchants:read")
    assert answer.status_code == 400
    assert "Another key has this name" in page.select_one("#name-errors").get_text()
    answer, page = create_key(client, "Roomly")
    assert "Choose at least one" in page.select_one("#scopes-errors").get_text()
    assert page.select_one("#name")["value"] == "Roomly"
    answer, page = create_key(client, "Roomly", "payments")
    assert "Say why" in page.select_one("#reason-errors").get_text()


def test_an_expired_key_opens_nothing(app, auth, client, portal_clock):
    auth.login("admin")
    tomorrow = (clock.utcnow() + timedelta(days=1)).date().isoformat()
    token = shown_token(create_key(client, "Stayhub", "merchants:read",
                                   expires_on=tomorrow)[1])
    api = Api(app.test_client(), token)
    assert api.get("/merchants").status_code == 200
    portal_clock.advance(2 * 86400 + 1)
    assert api.get("/merchants").status_code == 401


def test_a_payments_key_opens_once_a_second_admin_approves_it(app, auth, client):
    auth.login("admin")
    page = create_key(client, "Stayhub", "payments", reason="Stayhub takes the deposits")[1]
    token = shown_token(page)
    assert "Approvals page" in page.select_one("[role=status]").get_text()
    api = Api(app.test_client(), token)
    assert api.get("/payments").status_code == 401
    assert all(r.status_code == 400 or "yourself" in r.get_data(as_text=True)
               for r in decide_all(app, email="admin@example.com"))  # not the asker's own
    assert api.get("/payments").status_code == 401
    decisions = decide_all(app)
    assert len(decisions) == 1 and "may now take" in decisions[0].get_data(as_text=True)
    assert api.get("/payments").status_code == 200
    with app.app_context():
        request = db.session.scalar(select(ApprovalRequest))
        assert token not in str(request.payload) and request.state == "done"


def test_only_admins_open_the_keys_page(auth, client):
    auth.login("ops")
    assert client.get("/admin/api-keys/").status_code == 403
    assert client.post("/admin/api-keys/", data={"name": "x"}).status_code == 403


def test_a_key_never_opens_a_page(app, token):
    visitor = app.test_client()
    for path in ("/admin/api-keys/", "/admin/team", "/approvals/", "/merchants", "/admin/"):
        answer = visitor.get(path, headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code in (302, 401), path
        assert answer.status_code == 401 or "/login" in answer.headers["Location"]
