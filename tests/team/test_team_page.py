"""The team page: admins add, (de)activate and re-role users; ops and strangers cannot."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models import AuditEvent
from portal.domain.users.accounts import authenticate, find_user
from tests.support.accounts import TEST_PASSWORD, AuthActions
from tests.support.mail import body_of, link_in
from tests.team.support import CONFIRMED

ADMIN_ROUTES = [
    ("get", "/admin/team"), ("post", "/admin/team"), ("post", "/admin/team/1/deactivate"),
    ("post", "/admin/team/1/reactivate"), ("post", "/admin/team/1/role"),
    ("post", "/admin/team/1/one-time-password"), ("get", "/admin/team/1/promote"),
    ("post", "/admin/team/1/promote"), ("get", "/admin/team/1/deactivate"),
    ("post", "/admin/team/1/invite"), ("get", "/admin/team/1/two-step-sign-in"),
    ("post", "/admin/team/1/two-step-sign-in"), ("get", "/admin/emails"),
    ("get", "/admin/emails/verification_reminder"),
    ("post", "/admin/emails/verification_reminder"),
    ("post", "/admin/emails/verification_reminder/restore"),
]


def _page(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "html.parser")


def _user(app, email: str):
    with app.app_context():
        user = find_user(email)
        db.session.expunge(user)
        return user


def _actions(app) -> list[str]:
    with app.app_context():
        return [e.action for e in db.session.scalars(select(AuditEvent).order_by(AuditEvent.id))]


def _can_sign_in(app, email: str, password: str) -> bool:
    with app.app_context():
        return authenticate(email, password, "127.0.0.1") is not None


@pytest.mark.parametrize(("method", "path"), ADMIN_ROUTES)
def test_ops_are_refused_every_admin_route(client, auth, method, path):
    auth.login("ops")
    assert getattr(client, method)(path).status_code == 403


@pytest.mark.parametrize(("method", "path"), ADMIN_ROUTES)
def test_anonymous_visitors_are_sent_to_sign_in(client, method, path):
    response = getattr(client, method)(path)
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login")


def test_only_admins_see_team_and_emails_in_the_navigation(client, auth):
    auth.login("ops")
    labels = [a.get_text() for a in _page(client.get("/merchants")).select(".site-nav a")]
    assert "Team" not in labels
    auth.logout()
    auth.login("admin")
    labels = [a.get_text() for a in _page(client.get("/admin/team")).select(".site-nav a")]
    assert {"Team", "Emails"} <= set(labels)


def test_an_admin_adds_a_user_with_a_one_time_password_shown_once(app, client, auth, mail_sink):
    auth.login("admin")
    response = client.post("/admin/team", data={"email": " New.Ops@Example.com ", "role": "ops"})
    assert response.status_code == 200
    password = _page(response).select_one("#one-time-password")["value"]
    assert response.headers["Cache-Control"] == "no-store"
    user = _user(app, "new.ops@example.com")
    assert (user.role, user.active, user.must_change_password) == ("ops", True, True)
    assert _can_sign_in(app, "new.ops@example.com", password)
    assert mail_sink.messages() == []
    assert "user.create" in _actions(app)
    assert password not in str(_actions(app))


def test_an_invitation_email_carries_a_link_to_choose_a_password(app, client, auth, mail_sink):
    auth.login("admin")
    response = client.post("/admin/team", data={"email": "new@example.com", "role": "ops",
                                                "invite": "y"}, follow_redirects=True)
    assert "invited by email" in response.get_data(as_text=True)
    [message] = mail_sink.messages()
    assert message["To"] == "new@example.com"
    assert "as an operations user" in body_of(message)
    link = link_in(message)
    assert link.startswith("/team/welcome?token=")
    auth.logout()
    page = client.get(link)
    assert page.status_code == 200
    chosen = "a brand new passphrase"
    done = client.post(link, data={"password": chosen, "confirm_password": chosen})
    assert done.status_code == 302 and done.headers["Location"] == "/login"
    assert _can_sign_in(app, "new@example.com", chosen)
    assert not _user(app, "new@example.com").must_change_password
    assert client.get(link).status_code == 410, "an invitation works once"
    assert "user.invitation_accept" in _actions(app)


@pytest.mark.parametrize(("email", "error"), [
    ("", "Enter an email address."),
    ("not an email", "Enter an email address like name@example.com."),
    ("admin@example.com", "There is already a user admin@example.com."),
])
def test_a_bad_email_is_explained_beside_the_field_and_kept(client, auth, email, error):
    auth.login("admin")
    response = client.post("/admin/team", data={"email": email, "role": "admin"})
    assert response.status_code == 400
    page = _page(response)
    assert page.select_one("#email-errors").get_text(strip=True) == error
    assert page.select_one("#email")["aria-describedby"] == "email-errors"
    assert page.select_one("#email").get("value", "") == email
    assert page.select_one("#role option[selected]")["value"] == "admin"


def test_deactivate_then_reactivate_a_user(app, client, auth):
    ops = auth.create("ops")
    auth.login("admin")
    user_id = _user(app, ops).id
    response = client.post(f"/admin/team/{user_id}/deactivate", data=CONFIRMED,
                           follow_redirects=True)
    assert f"{ops} was deactivated." in response.get_data(as_text=True)
    row = _page(response).select_one(f'tr[data-user="{ops}"]')
    assert row.select_one(".user-state").get_text(strip=True) == "Deactivated"
    assert not _can_sign_in(app, ops, TEST_PASSWORD)
    response = client.post(f"/admin/team/{user_id}/reactivate", follow_redirects=True)
    row = _page(response).select_one(f'tr[data-user="{ops}"]')
    assert row.select_one(".user-state").get_text(strip=True) == "Active"
    assert _can_sign_in(app, ops, TEST_PASSWORD)
    assert [a for a in _actions(app) if a.startswith("user.") and "activate" in a] == [
        "user.deactivate", "user.activate"]


def test_a_deactivated_users_session_ends(app, client, auth):
    ops_client = app.test_client()
    AuthActions(app, ops_client).login("ops")
    assert ops_client.get("/merchants").status_code == 200
    auth.login("admin")
    client.post(f"/admin/team/{_user(app, 'ops@example.com').id}/deactivate", data=CONFIRMED)
    assert ops_client.get("/merchants").status_code == 302


def test_an_admin_cannot_deactivate_or_demote_themselves(app, client, auth):
    auth.login("admin")
    me = _user(app, "admin@example.com").id
    response = client.post(f"/admin/team/{me}/deactivate", data=CONFIRMED,
                           follow_redirects=True)
    assert "cannot deactivate your own account" in response.get_data(as_text=True)
    response = client.post(f"/admin/team/{me}/role", data={f"user-{me}-role": "ops"},
                           follow_redirects=True)
    assert "cannot change your own role" in response.get_data(as_text=True)
    assert _user(app, "admin@example.com").role == "admin"
    assert _user(app, "admin@example.com").active


def test_the_last_active_admin_stays_an_active_admin(app, client, auth):
    other = auth.create("admin", "other.admin@example.com")
    auth.login("admin")
    other_id = _user(app, other).id
    client.post(f"/admin/team/{_user(app, 'admin@example.com').id}/deactivate", data=CONFIRMED)
    # demote the other admin: allowed, two admins are active
    client.post(f"/admin/team/{other_id}/role", data={f"user-{other_id}-role": "ops"})
    assert _user(app, other).role == "ops"
    assert "user.role_change" in _actions(app)
    assert _user(app, "admin@example.com").active


def test_change_role_and_issue_a_one_time_password(app, client, auth):
    ops = auth.create("admin", "soon.ops@example.com")
    auth.login("admin")
    ops_id = _user(app, ops).id
    response = client.post(f"/admin/team/{ops_id}/role", data={f"user-{ops_id}-role": "ops"},
                           follow_redirects=True)
    assert f"{ops} is now operations." in response.get_data(as_text=True)
    assert _user(app, ops).role == "ops"
    response = client.post(f"/admin/team/{ops_id}/one-time-password")
    password = _page(response).select_one("#one-time-password")["value"]
    assert not _can_sign_in(app, ops, TEST_PASSWORD)
    assert _can_sign_in(app, ops, password)
    assert _user(app, ops).must_change_password
    assert "user.one_time_password" in _actions(app)


def test_every_team_form_needs_its_csrf_token(csrf_app, csrf_client):
    actions = AuthActions(csrf_app, csrf_client)
    ops = actions.create("admin", "other.admin@example.com")
    actions.login("admin")
    ops_id = _user(csrf_app, ops).id
    csrf_client.post(f"/admin/team/{ops_id}/deactivate", data=CONFIRMED)
    csrf_client.post(f"/admin/team/{ops_id}/role", data={f"user-{ops_id}-role": "ops"})
    assert csrf_client.post("/admin/team", data={"email": "x@example.com", "role": "ops"}
                            ).status_code == 400
    user = _user(csrf_app, ops)
    assert (user.active, user.role) == (True, "admin")
    assert find_user_in(csrf_app, "x@example.com") is None
    team = _page(csrf_client.get("/admin/team"))
    forms = team.select("form[method=post]")
    assert forms and all(form.select_one("input[name$=csrf_token]") for form in forms)
    role_form = team.select_one(f'form[action="/admin/team/{ops_id}/role"]')
    data = {field["name"]: field.get("value", "") for field in role_form.select("input")}
    csrf_client.post(f"/admin/team/{ops_id}/role", data={**data, f"user-{ops_id}-role": "ops"})
    assert _user(csrf_app, ops).role == "ops", "with the page's own token the change is made"


def find_user_in(app, email: str):
    with app.app_context():
        return find_user(email)

