"""A post held after a session expired goes back to its author only, once, for a short time."""

from __future__ import annotations

import pytest
from flask import session
from flask_login import login_user

from portal.auth import held_forms
from portal.auth.accounts import find_user
from portal.db import db
from portal.models import HeldForm, User

PATH = "/merchants/1/steps/owners"
POSTED = {"owners-0-name": "Asha Rao", "csrf_token": "stale", "draft_version": "3"}


@pytest.fixture
def users(app, auth) -> tuple[int, int]:
    """Two members of staff."""
    emails = auth.create("ops"), auth.create("ops", email="colleague@example.com")
    with app.app_context():
        return tuple(find_user(email).id for email in emails)  # type: ignore[return-value]


def held(app, user_id: int | None) -> str:
    """Hold a post to PATH as ``user_id``'s; the claim token its browser would carry."""
    with app.test_request_context(PATH, method="POST", data=POSTED,
                                  headers={"Origin": "http://localhost"}):
        assert held_forms.holdable()
        held_forms.hold(user_id)
        return session[held_forms.SESSION_KEY]


def claimed(app, token: str, user_id: int, path: str = PATH):
    """What ``user_id`` gets back on ``path`` with the token in their session."""
    with app.test_request_context(path):
        login_user(db.session.get(User, user_id))
        session[held_forms.SESSION_KEY] = token
        return held_forms.claim(path)


def test_the_author_gets_the_post_back_once_without_its_token(app, users):
    token = held(app, users[0])
    typed = claimed(app, token, users[0])
    assert typed is not None and typed.to_dict() == {"owners-0-name": "Asha Rao",
                                                     "draft_version": "3"}
    assert claimed(app, token, users[0]) is None


def test_another_user_or_another_page_does_not_get_it(app, users):
    token = held(app, users[0])
    assert claimed(app, token, users[1]) is None
    assert claimed(app, token, users[0], path="/merchants/1/steps/bank") is None
    assert claimed(app, token, users[0]) is not None


def test_an_unbound_post_goes_to_whoever_signs_in_on_that_browser(app, users):
    assert claimed(app, held(app, None), users[1]) is not None


def test_it_expires(app, users, portal_clock):
    token = held(app, users[0])
    portal_clock.advance(held_forms.HOLD_MINUTES * 60 + 1)
    assert claimed(app, token, users[0]) is None


def test_a_post_from_another_site_is_not_holdable(app):
    with app.test_request_context(PATH, method="POST", data=POSTED,
                                  headers={"Origin": "http://evil.example"}):
        assert not held_forms.holdable()
    with app.app_context():
        assert db.session.query(HeldForm).count() == 0
