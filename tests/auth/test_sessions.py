"""Sessions end on the server: a copied cookie dies with sign-out, a password change or a
deactivation, and no session outlives SESSION_MAX_HOURS however busy (real HTTP, real cookies)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
import requests

from portal.core.db import db
from portal.domain.users.accounts import set_active
from tests.support.accounts import TEST_PASSWORD
from tests.support.servers import serve

NEW_PASSWORD = "a much longer passphrase of mine"
#: SESSION_MAX_HOURS's default.
LIFETIME = timedelta(hours=12)


@pytest.fixture
def url(app) -> Iterator[str]:
    """The portal (CSRF checks off, as in ``app``) served on loopback."""
    with serve(app) as base:
        yield base


def signed_in(url: str, email: str, password: str = TEST_PASSWORD) -> requests.Session:
    """A cookie jar signed in through the form."""
    jar = requests.Session()
    answer = jar.post(url + "/login", data={"email": email, "password": password},
                      allow_redirects=False, timeout=10)
    assert answer.headers["Location"] in ("/worklist", "/merchants"), "sign-in failed"
    return jar


def copy_of(jar: requests.Session) -> requests.Session:
    """Another client holding the same cookies (a stolen or copied cookie)."""
    thief = requests.Session()
    thief.cookies.update(jar.cookies)
    return thief


def opens_merchants(jar: requests.Session, url: str) -> bool:
    """True when ``jar`` is let into the merchant list."""
    return jar.get(url + "/merchants", allow_redirects=False, timeout=10).status_code == 200


def test_a_copied_cookie_dies_with_sign_out(auth, url):
    jar = signed_in(url, auth.create())
    thief = copy_of(jar)
    assert opens_merchants(thief, url)
    jar.post(url + "/logout", timeout=10)
    assert not opens_merchants(thief, url)
    assert not opens_merchants(jar, url)


def test_a_password_change_ends_the_other_sessions_but_not_this_one(auth, url):
    email = auth.create()
    laptop, phone = signed_in(url, email), signed_in(url, email)
    thief = copy_of(laptop)
    answer = laptop.post(url + "/account/password", allow_redirects=False, timeout=10, data={
        "current_password": TEST_PASSWORD, "new_password": NEW_PASSWORD,
        "confirm_password": NEW_PASSWORD})
    assert answer.status_code == 302
    assert opens_merchants(laptop, url)
    assert not opens_merchants(phone, url)
    assert not opens_merchants(thief, url), "the old cookie of the changing session ended too"


def test_deactivation_ends_every_session_for_good(app, auth, url):
    email = auth.create()
    jar = signed_in(url, email)
    with app.app_context():
        set_active(email, False)
        db.session.commit()
        set_active(email, True)
        db.session.commit()
    assert not opens_merchants(jar, url)
    assert opens_merchants(signed_in(url, email), url)


def test_a_busy_session_still_ends_after_its_absolute_lifetime(app, auth, url, settings,
                                                             portal_clock):
    jar = signed_in(url, auth.create())
    lifetime = LIFETIME
    step = timedelta(minutes=settings.session_idle_minutes) / 2
    used = timedelta()
    while used + step < lifetime:
        portal_clock.advance(step.total_seconds())
        used += step
        assert opens_merchants(jar, url), f"ended after {used} of use"
    portal_clock.advance((lifetime - used).total_seconds())
    assert not opens_merchants(jar, url)
