"""Sign-in, sign-out, throttling, idle timeout and access control."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from bs4 import BeautifulSoup
from flask import Blueprint, Flask, jsonify
from sqlalchemy import select

from portal.app.factory import create_app
from portal.core.db import db
from portal.core.models import AuditEvent
from portal.domain.users.accounts import find_user, set_active
from portal.domain.users.passwords import needs_rehash
from portal.domain.users.throttle import ACCOUNT_LIMIT, ADDRESS_LIMIT, ADDRESS_WINDOW, LOCK_DURATION
from portal.web.auth.access import is_public, roles_required
from tests.support.accounts import TEST_PASSWORD
from tests.support.settings import settings_for

SAMPLE_VALUES = {"int": "1", "float": "1.0", "uuid": "00000000-0000-4000-8000-000000000000"}
CONVERTER = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?\w+>")


def _sample_path(rule: str) -> str:
    return CONVERTER.sub(lambda m: SAMPLE_VALUES.get(m.group(1) or "", "x"), rule)


def _protected_routes() -> list[tuple[str, str]]:
    """(method, path) of every non-public rule of the portal, whatever blueprints it has."""
    app = create_app(settings_for("sqlite://", "http://127.0.0.1:9", Path("/nonexistent")))
    with app.test_request_context():
        return sorted({(method, _sample_path(rule.rule))
                       for rule in app.url_map.iter_rules() if not is_public(rule.endpoint)
                       for method in rule.methods - {"HEAD", "OPTIONS"}})


def _flashes(response) -> list[str]:
    return [p.get_text(strip=True) for p in BeautifulSoup(response.data, "html.parser")
            .select(".flash")]


def _csrf_token(client, path: str = "/login") -> str:
    page = BeautifulSoup(client.get(path).data, "html.parser")
    return page.find("input", {"name": "csrf_token"})["value"]


def _signed_in(client) -> bool:
    return client.get("/").headers["Location"] != "/login?next=/"


@pytest.mark.parametrize(("method", "path"), _protected_routes())
def test_anonymous_users_reach_nothing(client, method, path):
    response = client.open(path, method=method)
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login?next=")


def test_anonymous_json_clients_get_401(client):
    response = client.get("/", headers={"Accept": "application/json"})
    assert response.status_code == 401
    assert response.json["error"] == "unauthorized"


@pytest.mark.parametrize("path", ["/login", "/healthz", "/static/css/portal.css"])
def test_public_pages_need_no_sign_in(client, path):
    response = client.get(path)
    assert response.status_code == 200
    response.close()


def test_login_succeeds_and_goes_home(auth, client, app):
    response = auth.login()
    assert response.status_code == 302
    assert response.headers["Location"] == "/worklist"  # an ops user's work for today
    with app.app_context():
        event = db.session.scalars(select(AuditEvent)).one()
    assert (event.action, event.outcome, event.actor_label) == ("user.login", "ok",
                                                                "ops@example.com")


def test_signed_in_home_redirects_to_the_users_home(auth, client):
    auth.login()
    assert client.get("/").headers["Location"] == "/worklist"
    assert client.get("/login").headers["Location"] == "/worklist"


def test_email_is_case_insensitive(auth, client):
    auth.create(email="Mixed.Case@Example.com")
    response = client.post("/login", data={"email": "MIXED.case@example.COM",
                                           "password": TEST_PASSWORD})
    assert response.status_code == 302


def test_login_follows_a_local_next(auth, client):
    auth.create()
    response = client.post("/login?next=/merchants/7?tab=steps",
                           data={"email": "ops@example.com", "password": TEST_PASSWORD})
    assert response.headers["Location"] == "/merchants/7?tab=steps"


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "/\\evil.example",
                                    "javascript:alert(1)", "merchants"])
def test_login_ignores_a_foreign_next(auth, client, target):
    auth.create()
    response = client.post("/login", query_string={"next": target},
                           data={"email": "ops@example.com", "password": TEST_PASSWORD})
    assert response.headers["Location"] == "/worklist"


def test_wrong_password_and_unknown_email_look_the_same(auth, client, app):
    wrong = auth.login(password="not the password")
    unknown = client.post("/login", data={"email": "nobody@example.com",
                                          "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 200
    assert _flashes(wrong) == _flashes(unknown)
    assert "Sign-in failed" in _flashes(wrong)[0]
    assert not _signed_in(client)
    with app.app_context():
        outcomes = db.session.scalars(select(AuditEvent.outcome)).all()
    assert outcomes == ["failed", "failed"]


def test_account_locks_after_repeated_failures_until_the_lock_expires(auth, client,
                                                                      portal_clock):
    for _ in range(ACCOUNT_LIMIT):
        auth.login(password="not the password")
    refused = auth.login()
    assert _flashes(refused) == _flashes(auth.login(password="not the password"))
    assert not _signed_in(client)

    portal_clock.advance(LOCK_DURATION.total_seconds() + 1)
    assert auth.login().status_code == 302


def test_success_resets_the_failure_count(auth, client):
    for _ in range(ACCOUNT_LIMIT - 1):
        auth.login(password="not the password")
    auth.login()
    auth.logout()
    for _ in range(ACCOUNT_LIMIT - 1):
        auth.login(password="not the password")
    assert auth.login().status_code == 302


def test_address_is_blocked_after_many_failures_until_its_window_ends(auth, client,
                                                                      portal_clock):
    auth.create()
    for n in range(ADDRESS_LIMIT):
        client.post("/login", data={"email": f"guess{n}@example.com", "password": "guess"})
    assert auth.login().status_code == 200
    assert not _signed_in(client)

    portal_clock.advance(ADDRESS_WINDOW.total_seconds() + 1)
    assert auth.login().status_code == 302


def test_address_throttle_is_per_address(auth, client, app):
    auth.create()
    for n in range(ADDRESS_LIMIT):
        client.post("/login", data={"email": f"guess{n}@example.com", "password": "guess"})
    other = app.test_client()
    response = other.post("/login", environ_base={"REMOTE_ADDR": "192.0.2.7"},
                          data={"email": "ops@example.com", "password": TEST_PASSWORD})
    assert response.status_code == 302


def test_idle_session_is_signed_out(auth, client, settings, portal_clock):
    auth.login()
    idle = settings.session_idle_minutes * 60
    portal_clock.advance(idle - 60)
    assert _signed_in(client)
    portal_clock.advance(idle - 60)
    assert _signed_in(client), "each request restarts the idle period"

    portal_clock.advance(idle + 1)
    assert client.get("/").headers["Location"] == "/login?next=/"
    with client.session_transaction() as session:
        assert "_user_id" not in session


def test_session_cookie_is_permanent_and_hardened(auth, client, app):
    response = auth.login()
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Expires=" in cookie


def test_inactive_user_cannot_sign_in(auth, client):
    auth.create(active=False)
    response = auth.login()
    assert response.status_code == 200
    assert "Sign-in failed" in _flashes(response)[0]


def test_deactivated_user_is_signed_out_on_next_request(auth, client, app):
    auth.login()
    with app.app_context():
        set_active("ops@example.com", False)
        db.session.commit()
    assert client.get("/").headers["Location"] == "/login?next=/"


def test_login_starts_a_new_session(auth, client):
    with client.session_transaction() as session:
        session["planted"] = "by an attacker"
        session["csrf_token"] = "known-token"
    auth.login()
    with client.session_transaction() as session:
        assert "planted" not in session
        assert "csrf_token" not in session
        assert session["_fresh"] is True
        assert session.permanent


def test_logout_is_post_only(auth, client):
    auth.login()
    assert client.get("/logout").status_code == 302  # to the portal's first page, undone
    assert _signed_in(client)
    response = auth.logout()
    assert response.headers["Location"] == "/login"
    assert not _signed_in(client)


def test_logout_needs_a_csrf_token(csrf_client, auth):
    auth.create()
    token = _csrf_token(csrf_client)
    csrf_client.post("/login", data={"email": "ops@example.com", "password": TEST_PASSWORD,
                                     "csrf_token": token})
    assert csrf_client.post("/logout").status_code == 400
    assert _signed_in(csrf_client)
    token = _csrf_token(csrf_client, "/no-such-page")  # every page has the sign-out form
    assert csrf_client.post("/logout", data={"csrf_token": token}).status_code == 302
    assert not _signed_in(csrf_client)


def test_csrf_is_enforced_on_login(csrf_client, auth):
    auth.create()
    response = csrf_client.post("/login", data={"email": "ops@example.com",
                                                "password": TEST_PASSWORD})
    assert response.status_code == 400
    assert not _signed_in(csrf_client)


def _admin_only(app: Flask) -> None:
    bp = Blueprint("admin_probe", __name__)

    @bp.get("/admin-probe")
    @roles_required("admin")
    def probe():
        return jsonify(ok=True)

    app.register_blueprint(bp)


def test_roles_required_refuses_other_roles(app, auth, client):
    _admin_only(app)
    auth.login(role="ops")
    assert client.get("/admin-probe").status_code == 403


def test_roles_required_admits_the_role(app, auth, client):
    _admin_only(app)
    auth.login(role="admin")
    assert client.get("/admin-probe").json == {"ok": True}


def test_roles_required_sends_anonymous_users_to_sign_in(app, client):
    _admin_only(app)
    assert client.get("/admin-probe").status_code == 302
    assert client.get("/admin-probe", headers={"Accept": "application/json"}).status_code == 401


def test_login_upgrades_an_outdated_hash(auth, app):
    email = auth.create()
    with app.app_context():
        user = find_user(email)
        user.password_hash = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash(
            TEST_PASSWORD)
        db.session.commit()
    auth.login()
    with app.app_context():
        assert not needs_rehash(find_user(email).password_hash)


def test_failed_sign_ins_name_only_known_accounts(auth, client, app):
    auth.create(email="known@example.com")
    client.post("/login", data={"email": "  KNOWN@Example.com ", "password": "not the password"})
    client.post("/login", data={"email": "Stranger@Example.com", "password": "not the password"})
    with app.app_context():
        details = db.session.scalars(select(AuditEvent.detail).order_by(AuditEvent.id)).all()
    assert details[0]["email"] == "known@example.com"
    assert "email" not in details[1]
    assert "stranger" not in str(details[1]).lower()
