"""Two admins demoting (or deactivating) each other at the same moment, over real HTTP to a
served portal, on SQLite and PostgreSQL: one succeeds, the other is refused in words, and an
active admin always remains. Each request is held just before its first write until the other
reaches its own, so both have read whatever they read before either writes."""

from __future__ import annotations

import pytest
import requests
from sqlalchemy import func, select

from portal.core.db import db
from portal.core.models import User
from portal.domain.users.accounts import find_user
from tests.support.accounts import TEST_PASSWORD, AuthActions, current_code
from tests.support.interleave import post_at_once, writes_held_together
from tests.support.servers import serve, sign_in

ADMINS = ("first.admin@example.com", "second.admin@example.com")
REFUSED = "is the only active administrator"


def active_admins(app) -> int:
    """How many active admins the database holds."""
    with app.app_context():
        return db.session.scalar(select(func.count(User.id)).where(
            User.role == "admin", User.active.is_(True))) or 0


def said(app, answer: requests.Response) -> str:
    """The message the answer flashed, read from the session cookie it set (the refused admin
    may have been signed out by the other's change before seeing it)."""
    cookie = answer.cookies["session"]
    serializer = app.session_interface.get_signing_serializer(app)
    return " ".join(message for _category, message in serializer.loads(cookie)["_flashes"])


@pytest.mark.parametrize("change", ["role", "deactivate"])
def test_admins_removing_each_other_at_once_leave_one(app, client, portal_clock, change):
    for email in ADMINS:
        AuthActions(app, client).create("admin", email)
    with app.app_context():
        ids = [find_user(email).id for email in ADMINS]
    with serve(app) as url:
        browsers = [sign_in(url, email, TEST_PASSWORD, code=lambda e=email: current_code(app, e))
                    for email in ADMINS]
        posts = [(browsers[n], f"{url}/admin/team/{ids[1 - n]}/{change}",
                  {f"user-{ids[1 - n]}-role": "ops"} if change == "role"
                  else {"confirmed": "yes"})  # the confirmation page's button
                 for n in range(2)]
        with writes_held_together(db.engine(app), len(posts)):
            answers = post_at_once(posts)
    flashes = [said(app, answer) for answer in answers]
    assert active_admins(app) == 1
    assert sorted(REFUSED in text for text in flashes) == [False, True], flashes
