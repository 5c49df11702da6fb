"""Second factors bound to the session that set them up, over real HTTP: a key is shown once,
to one session; turning it on ends the user's other sessions; a session waiting at the code
step dies with a password change."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests
from pyotp import TOTP

from portal.core import clock
from portal.core.db import db
from portal.core.models import PendingEnrolment
from portal.domain.users.accounts import find_user
from tests.support.accounts import TEST_PASSWORD, current_code
from tests.support.servers import page_of, serve

NEW_PASSWORD = "a much longer passphrase of mine"


@pytest.fixture
def url(app) -> Iterator[str]:
    """The portal (CSRF checks off, as in ``app``) served on loopback."""
    with serve(app) as base:
        yield base


@pytest.fixture
def new_admin(app, auth) -> str:
    """An admin who has not set up an authenticator yet (as the team page creates one)."""
    email = auth.create("admin", email="new.admin@example.com")
    with app.app_context():
        user = find_user(email)
        user.totp_secret = user.totp_enrolled_at = None
        db.session.commit()
    return email


def password_only(url: str, email: str, password: str = TEST_PASSWORD) -> requests.Session:
    """A browser past the password step: signed in, or waiting at the code step."""
    browser = requests.Session()
    answer = browser.post(url + "/login", data={"email": email, "password": password},
                          allow_redirects=False, timeout=10)
    assert answer.status_code == 302 and answer.headers["Location"] != "/login", "refused"
    return browser


def shown_key(browser: requests.Session, url: str) -> str | None:
    """The authenticator key the enrolment page shows this browser, if any."""
    key = page_of(browser.get(url + "/account/authenticator", timeout=10)).select_one(".totp-key")
    return key.get_text() if key else None


def is_in(browser: requests.Session, url: str) -> bool:
    """True when the browser is let into the merchant list."""
    return browser.get(url + "/merchants", allow_redirects=False, timeout=10).status_code == 200


def test_another_session_never_sees_the_key_and_ends_when_it_is_confirmed(url, app, new_admin,
                                                                          portal_clock):
    owner, intruder = password_only(url, new_admin), password_only(url, new_admin)
    key = shown_key(owner, url)
    assert key is not None
    theirs = shown_key(intruder, url)
    assert theirs is not None and theirs != key, "each session gets a key of its own"
    turned_on = owner.post(url + "/account/authenticator", timeout=10,
                           data={"code": TOTP(key).at(clock.utcnow())})
    assert page_of(turned_on).select(".recovery-codes code"), "enrolled"
    assert is_in(owner, url)
    assert not is_in(intruder, url), "the password-only session ended"
    with app.app_context():
        assert find_user(new_admin).totp_secret == key
        assert db.session.query(PendingEnrolment).count() == 0


def test_the_key_is_shown_once_and_a_new_one_replaces_it(url, new_admin, portal_clock):
    browser = password_only(url, new_admin)
    first = shown_key(browser, url)
    assert first is not None
    wrong = browser.post(url + "/account/authenticator", data={"code": "123456"}, timeout=10)
    assert first not in wrong.text, "a failed code does not show the key again"
    assert "not right" in page_of(wrong).select_one("#code-errors").get_text()
    assert shown_key(browser, url) is None, "nor does a reload or another tab"
    renewed = browser.post(url + "/account/authenticator", data={"action": "new_key"},
                           timeout=10)
    second = page_of(renewed).select_one(".totp-key").get_text()
    assert second != first
    stale = browser.post(url + "/account/authenticator", timeout=10,
                         data={"code": TOTP(first).at(clock.utcnow())})
    assert "not right" in page_of(stale).select_one("#code-errors").get_text()
    done = browser.post(url + "/account/authenticator", timeout=10,
                        data={"code": TOTP(second).at(clock.utcnow())})
    assert page_of(done).select(".recovery-codes code")


def test_another_session_cannot_confirm_a_key_it_was_not_shown(url, new_admin, portal_clock):
    owner, intruder = password_only(url, new_admin), password_only(url, new_admin)
    key = shown_key(owner, url)
    refused = intruder.post(url + "/account/authenticator", timeout=10,
                            data={"code": TOTP(key).at(clock.utcnow())})
    assert "not right" in page_of(refused).select_one("#code-errors").get_text()
    owner.post(url + "/account/authenticator", data={"code": TOTP(key).at(clock.utcnow())},
               timeout=10)
    assert is_in(owner, url) and not is_in(intruder, url)


def test_a_password_change_ends_a_session_waiting_for_its_code(url, app, auth, portal_clock):
    email = auth.create("admin")
    waiting = password_only(url, email)
    assert waiting.get(url + "/login/code", allow_redirects=False, timeout=10).status_code == 200
    owner = password_only(url, email)
    owner.post(url + "/login/code", data={"code": current_code(app, email)}, timeout=10)
    changed = owner.post(url + "/account/password", allow_redirects=False, timeout=10, data={
        "current_password": TEST_PASSWORD, "new_password": NEW_PASSWORD,
        "confirm_password": NEW_PASSWORD})
    assert changed.status_code == 302 and is_in(owner, url)
    late = waiting.post(url + "/login/code", data={"code": current_code(app, email)},
                        allow_redirects=False, timeout=10)
    assert late.headers["Location"].startswith("/login")
    assert not is_in(waiting, url), "the old password's half sign-in did not complete"
