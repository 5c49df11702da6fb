"""The only admin cannot make a second one alone (issue 35, item 5): with no
ADMIN_CONFIRMATION_EMAIL, adding an administrator (with an invitation or a one-time password) or
making a member one is refused beside the field, naming the command to run on the server, and
nothing is stored; the team's services never make an administrator at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from portal.core.db import db
from portal.core.models import ApprovalRequest, Role
from portal.domain.users.accounts import find_user
from portal.features.team import service
from tests.support.accounts import AuthActions
from tests.support.team import audited, errors_beside, page, user_id, words

NEW_ADMIN = "new.admin@example.com"
MEMBER = "asha@example.com"
SERVER = "Run flask --app app users create new.admin@example.com --role admin on the server"


def _requests(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count(ApprovalRequest.id))) or 0


def _role(app, email: str) -> str | None:
    with app.app_context():
        user = find_user(email)
        return user.role if user else None


@pytest.mark.parametrize("invite", ["y", ""], ids=["invitation", "one-time password"])
def test_the_only_admin_cannot_add_an_administrator_from_the_team_page(app, client, invite):
    AuthActions(app, client).login("admin")
    refused = client.post("/admin/team", data={
        "email": NEW_ADMIN, "role": "admin", "invite": invite, "reason": "Night shift"})
    assert _role(app, NEW_ADMIN) is None
    assert refused.status_code == 400
    soup = page(refused)
    assert SERVER in " ".join(errors_beside(soup, "email"))
    assert soup.select_one("#one-time-password") is None
    assert soup.select_one("#email")["value"] == NEW_ADMIN, "what was typed is kept"
    assert _requests(app) == 0
    shown = client.get("/admin/team")
    assert "users create EMAIL --role admin" in words(page(shown).select_one("#reason-help"))


def test_the_only_admin_cannot_make_a_member_an_administrator(app, client):
    AuthActions(app, client).login("admin")
    member_id = user_id(app, AuthActions(app, app.test_client()).create("ops", MEMBER))
    chosen = client.post(f"/admin/team/{member_id}/role", data={f"user-{member_id}-role": "admin"})
    assert _role(app, MEMBER) == "ops"
    assert chosen.headers["Location"] == f"/admin/team/{member_id}/promote"
    explained = page(client.get(chosen.headers["Location"]))
    assert f"flask --app app users make-admin {MEMBER}" in words(explained.select_one("main"))
    assert explained.select_one("form textarea") is None, "nothing to ask here"
    refused = client.post(chosen.headers["Location"], data={"reason": "Leads onboarding"})
    assert refused.status_code == 400, "a post the page does not offer is refused too"
    assert f"flask --app app users make-admin {MEMBER}" in words(page(refused).select_one("main"))
    assert _role(app, MEMBER) == "ops"
    assert _requests(app) == 0
    assert audited(app, "user.role_change") == []


def test_the_team_services_never_make_an_administrator_at_once(app, auth):
    auth.create("admin")
    member = auth.create("ops", MEMBER)
    with app.app_context():
        admin, user = find_user("admin@example.com"), find_user(member)
        with pytest.raises(service.TeamError, match="only by a request"):
            service.add_member(NEW_ADMIN, Role.ADMIN, timedelta(hours=1), admin)
        with pytest.raises(service.TeamError, match="only by a request"):
            service.change_role(user, Role.ADMIN, admin)
        db.session.rollback()
    assert (_role(app, NEW_ADMIN), _role(app, MEMBER)) == (None, "ops")

