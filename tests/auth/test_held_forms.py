"""A post held after a session expired goes back to its author only, once, for a short time;
only a session the server recorded has its posts held, a bounded number of a bounded size."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import requests
from flask import session
from flask_login import login_user
from sqlalchemy import func, select

from portal.core.db import db
from portal.core.models import HeldForm, User
from portal.domain.users.accounts import find_user
from portal.web.auth import held_forms
from tests.support.accounts import TEST_PASSWORD
from tests.support.servers import page_of, serve

PATH = "/merchants/1/steps/owners"
POSTED = {"owners-0-name": "Asha Rao", "csrf_token": "stale", "draft_version": "3"}
#: What a stranger typed into step 1 (a PAN among it) before their session went idle.
TYPED = "ABCPD1234E"


@pytest.fixture
def users(app, auth) -> tuple[int, int]:
    """Two members of staff."""
    emails = auth.create("ops"), auth.create("ops", email="colleague@example.com")
    with app.app_context():
        return tuple(find_user(email).id for email in emails)  # type: ignore[return-value]


def held(app, user_id: int, data: dict[str, str] | None = None) -> str | None:
    """Hold a post to PATH as ``user_id``'s; the claim token its browser would carry (None
    when it was not held)."""
    with app.test_request_context(PATH, method="POST", data=data or POSTED,
                                  headers={"Origin": "http://localhost"}):
        assert held_forms.holdable()
        return session[held_forms.SESSION_KEY] if held_forms.hold(user_id) else None


def claimed(app, token: str, user_id: int, path: str = PATH):
    """What ``user_id`` gets back on ``path`` with the token in their session."""
    with app.test_request_context(path):
        login_user(db.session.get(User, user_id))
        session[held_forms.SESSION_KEY] = token
        return held_forms.claim(path)


def stored(app) -> int:
    """How many posts are held."""
    with app.app_context():
        return db.session.scalar(select(func.count(HeldForm.id))) or 0


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


def test_it_expires(app, users, portal_clock):
    token = held(app, users[0])
    portal_clock.advance(held_forms.HOLD_MINUTES * 60 + 1)
    assert claimed(app, token, users[0]) is None


def test_a_post_from_another_site_is_not_holdable(app):
    with app.test_request_context(PATH, method="POST", data=POSTED,
                                  headers={"Origin": "http://evil.example"}):
        assert not held_forms.holdable()
    assert stored(app) == 0


def test_a_user_has_a_few_held_posts_at_most_the_newest(app, users):
    tokens = [held(app, users[0], {**POSTED, "owners-0-name": f"Try {n}"}) for n in range(5)]
    held(app, users[1])
    assert stored(app) == held_forms.HOLDS_PER_USER + 1
    assert claimed(app, tokens[0], users[0]) is None, "pushed out by newer ones"
    assert claimed(app, tokens[-1], users[0])["owners-0-name"] == "Try 4"


def test_a_post_too_large_to_keep_is_not_held(app, users):
    huge = {**POSTED, "owners-0-name": "x" * held_forms.HOLD_MAX_CHARACTERS}
    assert held(app, users[0], huge) is None
    assert stored(app) == 0


# ---------------------------------------------------------------- over HTTP, CSRF checks on

@pytest.fixture
def url(csrf_app) -> Iterator[str]:
    """The portal, CSRF checks on, served on loopback."""
    with serve(csrf_app) as base:
        yield base


def signed_in(url: str, email: str) -> requests.Session:
    """A browser signed in through the form, its CSRF token read from the page."""
    browser = requests.Session()
    page = browser.get(url + "/login", timeout=10)
    answer = browser.post(url + "/login", timeout=10, allow_redirects=False, data={
        "email": email, "password": TEST_PASSWORD,
        "csrf_token": page_of(page).find("input", {"name": "csrf_token"})["value"]})
    assert answer.headers["Location"] in ("/worklist", "/merchants"), "sign-in failed"
    return browser


def post_step_one(url: str, browser: requests.Session, token: str, name: str):
    """Post step 1 from the portal's own page (Origin is the portal's) with ``token``."""
    return browser.post(url + "/merchants/new", timeout=30, allow_redirects=False,
                        headers={"Origin": url}, data={
                            "csrf_token": token, "legalName": name, "panNumber": TYPED,
                            "action": "draft"})


def new_merchant_token(url: str, browser: requests.Session) -> str:
    """The CSRF token of step 1's form as the signed-in browser sees it."""
    page = browser.get(url + "/merchants/new", timeout=10)
    return page_of(page).find("input", {"name": "csrf_token"})["value"]


def test_an_anonymous_post_is_never_stored(url, csrf_app):
    stranger = requests.Session()
    answer = stranger.post(url + "/merchants/new", timeout=60, allow_redirects=False,
                           headers={"Origin": url},
                           data={"legalName": "x" * 400_000, "panNumber": TYPED})
    assert answer.status_code == 302 and "/login" in answer.headers["Location"]
    assert stored(csrf_app) == 0


def test_the_session_cookie_outlives_the_idle_timeout(url, auth, settings):
    """The browser keeps the cookie past an idle ending, so the server still knows whose the
    session was (Flask dates the cookie by the real clock)."""
    browser = signed_in(url, auth.create("ops"))
    [cookie] = [c for c in browser.cookies if c.name == "session"]
    assert cookie.expires is not None
    assert cookie.expires - time.time() > settings.session_max_hours * 3600 - 60


def test_after_the_cookie_is_gone_the_next_user_never_sees_the_typing(url, auth, csrf_app):
    """The first user's cookie dropped (as a browser drops an expired one): their post is not
    held for whoever signs in next on that browser."""
    browser = signed_in(url, auth.create("ops"))
    token = new_merchant_token(url, browser)
    browser.cookies.clear()
    answer = post_step_one(url, browser, token, "First User Traders")
    assert "/login" in answer.headers["Location"]
    assert stored(csrf_app) == 0
    other = auth.create("ops", email="colleague@example.com")
    browser.cookies.update(signed_in(url, other).cookies)
    page = browser.get(url + "/merchants/new", timeout=10)
    assert TYPED not in page.text and "First User Traders" not in page.text


def test_an_idle_post_goes_back_to_its_owner_only(url, auth, csrf_app, portal_clock, settings):
    owner = auth.create("ops")
    browser = signed_in(url, owner)
    token = new_merchant_token(url, browser)
    portal_clock.advance(settings.session_idle_minutes * 60 + 1)
    answer = post_step_one(url, browser, token, "Owner Traders")
    assert "/login" in answer.headers["Location"]
    assert stored(csrf_app) == 1
    with csrf_app.app_context():
        assert db.session.scalar(select(HeldForm.user_id)) == find_user(owner).id
    colleague = signed_in(url, auth.create("ops", email="colleague@example.com"))
    browser.cookies.set("session", colleague.cookies["session"])
    assert "Owner Traders" not in browser.get(url + "/merchants/new", timeout=10).text
    assert stored(csrf_app) == 1, "still waiting for its owner"


def test_an_idle_post_too_large_is_not_kept_and_the_page_says_so(url, auth, csrf_app,
                                                                  portal_clock, settings):
    browser = signed_in(url, auth.create("ops"))
    token = new_merchant_token(url, browser)
    portal_clock.advance(settings.session_idle_minutes * 60 + 1)
    answer = post_step_one(url, browser, token, "x" * (held_forms.HOLD_MAX_CHARACTERS + 1))
    assert stored(csrf_app) == 0
    sign_in_page = browser.get(url + answer.headers["Location"], timeout=10)
    assert "too long to keep" in page_of(sign_in_page).select_one(".flash").get_text()
