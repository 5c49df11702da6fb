"""Guesses sent at once, over real HTTP to a served portal, on SQLite and PostgreSQL: every wrong
password is counted, so the lock holds and the right password is refused afterwards (from that
address); a second factor sent twice at once signs in once."""

from __future__ import annotations

import pytest
import requests
from sqlalchemy import select

from portal.core.db import db
from portal.core.models import LoginFailure, LoginThrottle
from portal.domain.users.accounts import find_user
from portal.domain.users.recovery_codes import replace_codes
from portal.domain.users.throttle import ADDRESS_LIMIT
from tests.support.accounts import TEST_PASSWORD, AuthActions, current_code
from tests.support.interleave import post_at_once
from tests.support.servers import serve

GUESSES = 10


def _signed_in(answer: requests.Response) -> bool:
    return answer.status_code == 302 and not answer.headers["Location"].startswith("/login")


def test_simultaneous_wrong_passwords_lock_the_account(app, client):
    email = AuthActions(app, client).create("ops")
    with serve(app) as url:
        sessions = [requests.Session() for _ in range(GUESSES)]
        bodies = [{"email": email, "password": f"wrong guess {n}"} for n in range(GUESSES)]
        posts = [(s, url + "/login", b) for s, b in zip(sessions, bodies, strict=True)]
        answers = post_at_once(posts, allow_redirects=True)
        assert [a.status_code for a in answers] == [200] * GUESSES
        with app.app_context():
            user_id = find_user(email).id
            lock = db.session.get(LoginFailure, (user_id, "127.0.0.1"))
            assert lock is not None and lock.locked_until is not None, "no lock"
        right = requests.post(url + "/login", data={"email": email, "password": TEST_PASSWORD},
                              allow_redirects=False, timeout=30)
        assert not _signed_in(right)


def test_simultaneous_failures_from_one_address_are_all_counted(app, client):
    AuthActions(app, client).create("ops")
    with serve(app) as url:
        sessions = [requests.Session() for _ in range(ADDRESS_LIMIT)]
        bodies = [{"email": f"guess{n}@example.com", "password": "guess"}
                  for n in range(ADDRESS_LIMIT)]
        post_at_once([(s, url + "/login", b) for s, b in zip(sessions, bodies, strict=True)],
                     allow_redirects=True)
        with app.app_context():
            failures = db.session.scalar(select(LoginThrottle.failures))
        assert failures == ADDRESS_LIMIT
        right = requests.post(url + "/login", data={"email": "ops@example.com",
                                                    "password": TEST_PASSWORD},
                              allow_redirects=False, timeout=30)
        assert not _signed_in(right), "the address is blocked"


@pytest.mark.parametrize("kind", ["authenticator", "recovery"])
def test_one_code_sent_twice_at_once_signs_in_once(app, client, portal_clock, kind):
    email = AuthActions(app, client).create("admin")
    with app.app_context():
        recovery = replace_codes(find_user(email).id)
        db.session.commit()
    code = current_code(app, email) if kind == "authenticator" else recovery[0]
    with serve(app) as url:
        sessions = [requests.Session() for _ in range(2)]
        for jar in sessions:
            jar.post(url + "/login", data={"email": email, "password": TEST_PASSWORD},
                     allow_redirects=False, timeout=30)
        posts = [(s, url + "/login/code", {"code": code}) for s in sessions]
        answers = post_at_once(posts, allow_redirects=True)
        assert sorted(a.url.endswith("/merchants") for a in answers) == [False, True]
