"""Wrong passwords lock the address that typed them out of the account, not the account: a
stranger who knows an email cannot lock its owner out; only failures from many addresses lock
the account for everyone."""

from __future__ import annotations

from portal.domain.users.throttle import ACCOUNT_LIMIT, LOCK_DURATION, LOCKED_ADDRESSES
from tests.support.accounts import TEST_PASSWORD

STRANGER = "203.0.113.9"
OWNER = "198.51.100.4"


def sign_in(app, email: str, address: str, password: str = TEST_PASSWORD) -> bool:
    """Post the sign-in form from ``address`` in a browser of its own; True if signed in."""
    answer = app.test_client().post("/login", environ_base={"REMOTE_ADDR": address},
                                    data={"email": email, "password": password})
    return answer.status_code == 302 and not answer.headers["Location"].startswith("/login")


def test_a_stranger_locks_only_their_own_address_out(app, auth, portal_clock):
    email = auth.create("ops")
    for _ in range(ACCOUNT_LIMIT):
        assert not sign_in(app, email, STRANGER, "a wrong guess")
    assert not sign_in(app, email, STRANGER), "locked out from there, even with the password"
    assert sign_in(app, email, OWNER), "the owner, elsewhere, is not locked out"
    portal_clock.advance(LOCK_DURATION.total_seconds() + 1)
    assert sign_in(app, email, STRANGER)


def test_the_owners_success_clears_only_their_own_count(app, auth, portal_clock):
    email = auth.create("ops")
    for _ in range(ACCOUNT_LIMIT - 1):
        sign_in(app, email, STRANGER, "a wrong guess")
    assert sign_in(app, email, OWNER)
    assert not sign_in(app, email, STRANGER, "a wrong guess")
    assert not sign_in(app, email, STRANGER), "the stranger's fifth failure locked them out"


def test_failures_from_many_addresses_lock_the_account_for_everyone(app, auth, portal_clock):
    email = auth.create("ops")
    for n in range(LOCKED_ADDRESSES):
        for _ in range(ACCOUNT_LIMIT):
            sign_in(app, email, f"192.0.2.{n + 1}", "a wrong guess")
        assert sign_in(app, email, OWNER) is (n + 1 < LOCKED_ADDRESSES), f"after {n + 1}"
    portal_clock.advance(LOCK_DURATION.total_seconds() + 1)
    assert sign_in(app, email, OWNER)
