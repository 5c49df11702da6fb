"""The team page asks before deactivating, shows who is still invited and invites them again,
and resets a lost two-step sign-in (audited), as the account page tells people it can."""

from __future__ import annotations

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models import AuditEvent, RecoveryCode
from portal.domain.users.accounts import find_user
from tests.support.accounts import TEST_PASSWORD, AuthActions, enrol_authenticator
from tests.support.mail import link_in
from tests.team.support import CONFIRMED


def _page(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "html.parser")


def _user(app, email: str):
    with app.app_context():
        user = find_user(email)
        db.session.expunge(user)
        return user


def _audited(app, action: str) -> list[AuditEvent]:
    with app.app_context():
        return list(db.session.scalars(select(AuditEvent).where(AuditEvent.action == action)))


def _row(response, email: str):
    return _page(response).select_one(f'tr[data-user="{email}"]')


def test_deactivating_asks_first_and_a_bare_post_changes_nothing(app, client, auth):
    ops = auth.create("ops")
    auth.login("admin")
    user_id = _user(app, ops).id
    link = _row(client.get("/admin/team"), ops).select_one("a[href$='/deactivate']")
    assert link.get_text(" ", strip=True) == f"Deactivate {ops}"
    assert link["href"] == f"/admin/team/{user_id}/deactivate"
    asked = _page(client.get(link["href"]))
    assert asked.h1.get_text(strip=True) == f"Deactivate {ops}?"
    assert "signed out at once" in asked.get_text()
    assert asked.select_one(".team-confirm form button").get_text(strip=True) == "Deactivate"
    assert asked.find("a", string="Cancel")["href"] == "/admin/team"

    bare = client.post(f"/admin/team/{user_id}/deactivate")  # an old one-click form
    assert bare.status_code == 200 and _page(bare).h1.get_text(strip=True).startswith("Deacti")
    assert _user(app, ops).active
    client.post(f"/admin/team/{user_id}/deactivate", data=CONFIRMED)
    assert not _user(app, ops).active


def test_an_invited_member_shows_as_invited_until_they_sign_in(app, client, auth, mail_sink):
    auth.login("admin")
    client.post("/admin/team", data={"email": "new@example.com", "role": "ops", "invite": "y"})
    row = _row(client.get("/admin/team"), "new@example.com")
    assert row.select_one(".user-state")["data-state"] == "invited"
    assert row.select_one(".user-state").get_text(" ", strip=True) == (
        "Invited has not signed in yet")
    link = link_in(mail_sink.messages()[0])
    auth.logout()
    client.post(link, data={"password": TEST_PASSWORD, "confirm_password": TEST_PASSWORD})
    AuthActions(app, client).login("ops", "new@example.com")
    auth.logout()
    auth.login("admin")
    row = _row(client.get("/admin/team"), "new@example.com")
    assert row.select_one(".user-state").get_text(strip=True) == "Active"
    assert row.select_one("form[action$='/invite']") is None


def test_inviting_again_sends_a_new_link_and_the_old_one_dies(app, client, auth, mail_sink):
    auth.login("admin")
    client.post("/admin/team", data={"email": "new@example.com", "role": "ops", "invite": "y"})
    first = link_in(mail_sink.messages()[0])
    form = _row(client.get("/admin/team"), "new@example.com").select_one(
        "form[action$='/invite']")
    assert form.button.get_text(" ", strip=True) == "Invite again new@example.com"
    done = client.post(form["action"], follow_redirects=True)
    assert "A new invitation was emailed to new@example.com" in done.get_data(as_text=True)
    second = link_in(mail_sink.messages()[1])
    assert second != first
    auth.logout()
    assert client.get(first).status_code == 410
    assert client.get(second).status_code == 200
    [event] = _audited(app, "user.reinvite")
    assert (event.actor_label, event.detail) == ("admin@example.com", {"email": "new@example.com"})


def test_a_member_who_signed_in_is_not_invited_again(app, client, auth, mail_sink):
    ops = auth.create("ops")
    auth.login("admin")
    response = client.post(f"/admin/team/{_user(app, ops).id}/invite", follow_redirects=True)
    assert f"{ops} has signed in already" in response.get_data(as_text=True)
    assert mail_sink.messages() == []


def test_an_admin_resets_a_lost_two_step_sign_in_after_confirming(app, client, auth):
    ops = auth.create("ops")
    enrol_authenticator(app, ops)
    with app.app_context():
        db.session.add(RecoveryCode(user_id=_user(app, ops).id, code_hash="x" * 64))
        db.session.commit()
    ops_client = app.test_client()
    AuthActions(app, ops_client).login("ops")
    auth.login("admin")
    user_id = _user(app, ops).id
    link = _row(client.get("/admin/team"), ops).select_one("a[href$='/two-step-sign-in']")
    assert link.get_text(" ", strip=True) == f"Reset two-step sign-in of {ops}"
    asked = _page(client.get(link["href"]))
    assert asked.h1.get_text(strip=True) == f"Reset the two-step sign-in of {ops}?"
    assert _user(app, ops).has_totp, "asking changes nothing"
    done = client.post(link["href"], data=CONFIRMED, follow_redirects=True)
    assert f"The two-step sign-in of {ops} was reset" in done.get_data(as_text=True)
    assert not _user(app, ops).has_totp
    with app.app_context():
        assert db.session.scalars(select(RecoveryCode).where(
            RecoveryCode.user_id == user_id)).all() == []
    assert ops_client.get("/merchants").status_code == 302, "their sessions ended"
    [event] = _audited(app, "user.mfa_reset")
    assert (event.actor_label, event.detail) == ("admin@example.com", {"email": ops})
    assert _row(client.get("/admin/team"), ops).select_one("a[href$='/two-step-sign-in']") is None


def test_an_admin_cannot_reset_their_own_two_step_sign_in(app, client, auth):
    auth.login("admin")
    me = _user(app, "admin@example.com").id
    response = client.post(f"/admin/team/{me}/two-step-sign-in", data=CONFIRMED,
                           follow_redirects=True)
    assert "cannot reset your own two-step sign-in" in response.get_data(as_text=True)
    assert _user(app, "admin@example.com").has_totp


def test_the_audit_trail_says_team_changes_in_words(app, client, auth):
    ops = auth.create("ops")
    auth.login("admin")
    client.post(f"/admin/team/{_user(app, ops).id}/deactivate", data=CONFIRMED)
    sentences = [td.get_text() for td in _page(client.get("/admin/audit")).select("td.sentence")]
    assert f"admin@example.com (admin) deactivated {ops}." in sentences
