"""After any session loss, the sign-in page says what happened, not always "after 30 idle
minutes": idle, too old, signed out on the server, or no session sent at all."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from portal.core.db import db
from portal.domain.users.accounts import find_user
from portal.domain.users.session_records import close_all_sessions
from portal.web.auth import session_end
from portal.web.auth.session_end import Ending, ending_of

#: A page that keeps what was typed when the session is gone (a held post).
PATH = "/merchants/new"
FORM = {"externalOnboardingId": "pop-1", "action": "draft"}


def post_after_loss(client) -> str:
    """Post the new-merchant form as the portal's own page does; the sign-in page's warning."""
    response = client.post(PATH, data=FORM, headers={"Origin": "http://localhost"},
                           follow_redirects=True)
    assert response.request.path == "/login"
    soup = BeautifulSoup(response.data, "html.parser")
    return soup.select_one(".flash--warning, .flash--error").get_text(" ", strip=True)


@pytest.fixture
def signed_in(auth, client, portal_clock) -> str:
    """An ops user signed in at the frozen portal clock's time; their email."""
    email = auth.create("ops")
    auth.login("ops", email)
    return email


def test_idle_past_the_timeout(client, signed_in, portal_clock):
    portal_clock.advance(31 * 60)
    assert post_after_loss(client).startswith("Your session ended after 30 idle minutes")


def test_past_the_longest_a_session_lasts(client, signed_in, portal_clock):
    for _ in range(12 * 3 - 1):  # busy all day: a request every 20 minutes
        portal_clock.advance(20 * 60)
        assert client.get("/merchants").status_code == 200
    portal_clock.advance(20 * 60)  # 12 hours since signing in
    assert post_after_loss(client).startswith(
        "Your session ended 12 hours after you signed in")


def test_signed_out_on_the_server(app, client, signed_in):
    with app.app_context():  # a sign-out elsewhere, a password change or a deactivation
        close_all_sessions(find_user(signed_in).id)
        db.session.commit()
    words = post_after_loss(client)
    assert words.startswith("You were signed out (in another window")
    assert "could not be kept for you" in words  # an ended session's post is never held


def test_no_session_sent_at_all(client, signed_in):
    client.delete_cookie("session")  # as the browser does once the cookie's lifetime is over
    words = post_after_loss(client)
    assert words.startswith("You were no longer signed in: your browser did not send your "
                            "session")
    assert "nothing was saved" in words and "could not be kept for you" in words


@pytest.mark.parametrize(("recorded", "last_seen", "signed_in_at", "expected"), [
    (True, 0.0, 0.0, Ending.IDLE),
    (True, None, 0.0, Ending.IDLE),
    (False, 3000.0, 0.0, Ending.SIGNED_OUT),
    (False, 3000.0, None, Ending.SIGNED_OUT),  # a cookie from before the sign-in time was kept
    (False, 3000.0, 3600.0 - 12 * 3600, Ending.TOO_OLD),
])
def test_the_reason_is_told_apart(recorded, last_seen, signed_in_at, expected):
    assert ending_of(recorded=recorded, last_seen=last_seen, signed_in_at=signed_in_at,
                     now=3600.0, idle_minutes=30, max_hours=12) == expected
    assert session_end.words(expected, 30, 12).endswith(
        "Sign in again to get back to the page with what you typed.")
