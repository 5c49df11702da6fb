"""Four eyes that one admin cannot fake: while another admin exists, adding an administrator or
making someone one waits for that admin's approval; and an account the asker added, promoted or
gave a one-time password never approves the asker's requests."""

from __future__ import annotations

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models import ApprovalRequest, User
from portal.domain.four_eyes.queries import VOUCHED, waiting_for
from portal.domain.four_eyes.requests import request_portfolio_key
from portal.domain.users.accounts import find_user, set_password
from tests.approvals.support import a_pem
from tests.support.accounts import TEST_PASSWORD, AuthActions, enrol_authenticator
from tests.support.approvals import SECOND_ADMIN, decide_all, second_admin
from tests.support.mail import link_in
from tests.support.workers import run_worker

NEW_ADMIN = "new.admin@example.com"


def _page(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "html.parser")


def _user(app, email: str) -> User | None:
    with app.app_context():
        user = find_user(email)
        if user is not None:
            db.session.expunge(user)
        return user


def _requests(app) -> list[ApprovalRequest]:
    with app.app_context():
        found = list(db.session.scalars(select(ApprovalRequest).order_by(ApprovalRequest.id)))
        db.session.expunge_all()
        return found


def _two_admins(app, client) -> int:
    """The suite's admin signed in on ``client``, and a second admin; the first one's id."""
    AuthActions(app, client).login("admin")
    AuthActions(app, app.test_client()).create("admin", SECOND_ADMIN)
    return _user(app, "admin@example.com").id


def test_adding_an_admin_waits_for_another_admin(app, client):
    _two_admins(app, client)
    missing = client.post("/admin/team", data={"email": NEW_ADMIN, "role": "admin"})
    assert missing.status_code == 400
    page = _page(missing)
    assert "Say why" in page.select_one("#reason-errors").get_text()
    assert page.select_one("#email")["value"] == NEW_ADMIN
    asked = client.post("/admin/team", data={"email": NEW_ADMIN, "role": "admin",
                                             "reason": "Runs the Delhi team from Monday"})
    assert asked.headers["Location"] == "/admin/team"
    assert _user(app, NEW_ADMIN) is None, "no account, no one-time password shown yet"
    [request] = _requests(app)
    assert (request.kind, request.state) == ("admin_role", "pending")
    assert request.summary == f"Add {NEW_ADMIN} as an administrator"


def test_once_approved_the_admin_exists_and_is_emailed_an_invitation(app, client, mail_sink):
    asker = _two_admins(app, client)
    client.post("/admin/team", data={"email": NEW_ADMIN, "role": "admin", "invite": "y",
                                     "reason": "Runs the Delhi team from Monday"})
    [approved] = decide_all(app)
    assert "added as an administrator" in approved.get_data(as_text=True)
    user = _user(app, NEW_ADMIN)
    assert user is not None and user.role == "admin" and user.created_by_id == asker
    assert mail_sink.messages() == [], "sent by the worker, not by the approval"
    run_worker(app)
    [invitation] = mail_sink.messages()
    assert invitation["To"] == NEW_ADMIN
    assert link_in(invitation).startswith("/team/welcome?token=")


def test_making_someone_an_admin_waits_for_another_admin(app, client):
    asker = _two_admins(app, client)
    ops = AuthActions(app, app.test_client()).create("ops", "asha@example.com")
    ops_id = _user(app, ops).id
    chosen = client.post(f"/admin/team/{ops_id}/role", data={f"user-{ops_id}-role": "admin"})
    assert chosen.headers["Location"] == f"/admin/team/{ops_id}/promote"
    assert "Make asha@example.com an administrator" in client.get(chosen.headers[
        "Location"]).get_data(as_text=True)
    refused = client.post(chosen.headers["Location"], data={"reason": ""})
    assert refused.status_code == 400 and _page(refused).select_one("#reason-errors")
    client.post(chosen.headers["Location"], data={"reason": "Leads the onboarding team"})
    assert _user(app, ops).role == "ops"
    decide_all(app)
    promoted = _user(app, ops)
    assert (promoted.role, promoted.promoted_by_id) == ("admin", asker)


def _ask_for_a_key(app, asker_id: int) -> int:
    with app.app_context():
        return request_portfolio_key("PARENT9", "kid-portfolio-9", a_pem(), False,
                                     "The partner's existing portfolio key", asker_id).id


def _signs_in_with_the_suite_password(app, email: str) -> None:
    """Give ``email`` the suite's password and authenticator (as its holder would choose)."""
    with app.app_context():
        set_password(find_user(email), TEST_PASSWORD)
        db.session.commit()
    enrol_authenticator(app, email)


def _created(app, role: str, email: str) -> str:
    return AuthActions(app, app.test_client()).create(role, email)


def test_an_account_the_asker_vouched_for_cannot_approve(app, client):
    """Made admin by the asker, added by the asker, or given a one-time password by the asker:
    each could be the asker signed in, so their approval is refused in words."""
    asker = _two_admins(app, client)
    ops_id = _user(app, _created(app, "ops", "promoted@example.com")).id
    client.post(f"/admin/team/{ops_id}/promote", data={"reason": "Leads onboarding"})
    client.post("/admin/team", data={"email": "added@example.com", "role": "admin",
                                     "reason": "Second shift"})
    decide_all(app)  # a neutral admin approves both (asked by admin@)
    assert _user(app, "promoted@example.com").promoted_by_id == asker
    assert _user(app, "added@example.com").created_by_id == asker
    issued_id = _user(app, _created(app, "admin", "issued@example.com")).id
    client.post(f"/admin/team/{issued_id}/one-time-password")
    request_id = _ask_for_a_key(app, asker)
    for email in ("promoted@example.com", "added@example.com", "issued@example.com"):
        _signs_in_with_the_suite_password(app, email)
        approver = second_admin(app, email)
        card = _page(approver.get("/approvals/")).select_one(
            f"article[data-request='{request_id}']")
        assert card.select_one("button[value='approve']") is None, email
        assert VOUCHED in card.get_text(" ", strip=True)
        refused = approver.post(f"/approvals/{request_id}",
                                data={"decision": "approve", "reason": ""},
                                follow_redirects=True)
        assert VOUCHED in _page(refused).select_one(".flash--error").get_text(" ", strip=True)
        with app.app_context():
            assert waiting_for(_user(app, email).id) == 0, "the navigation counts none"
    assert [r.state for r in _requests(app) if r.id == request_id] == ["pending"]
    decide_all(app)  # a neutral admin may (carrying it out needs payments settings here)
    [decided] = [r for r in _requests(app) if r.id == request_id]
    assert decided.state != "pending" and decided.decided_by_id == _user(app, SECOND_ADMIN).id
