"""Two-step sign-in: authenticator codes (RFC 6238) and recovery codes, enrolment, who must."""

from __future__ import annotations

from datetime import timedelta

import pytest
from bs4 import BeautifulSoup
from pyotp import TOTP
from sqlalchemy import select

from portal.app.factory import create_app
from portal.core import clock
from portal.core.db import db
from portal.core.models import AuditEvent
from portal.domain.users.accounts import find_user
from portal.domain.users.mfa import remove_authenticator
from portal.domain.users.recovery_codes import COUNT
from portal.domain.users.throttle import ACCOUNT_LIMIT
from portal.web.auth.sessions import SECOND_FACTOR_WINDOW
from tests.support.accounts import TEST_PASSWORD, TEST_TOTP_SECRET, current_code, wrong_code

STEP_SECONDS = 30


def _page(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "html.parser")


def _password(client, email: str):
    return client.post("/login", data={"email": email, "password": TEST_PASSWORD})


def _code(client, code: str):
    return client.post("/login/code", data={"code": code})


def _signed_in(client) -> bool:
    return client.get("/merchants").status_code == 200


def _field_error(response) -> str:
    errors = _page(response).find(id="code-errors")
    return errors.get_text(" ", strip=True) if errors else ""


def _enrol(client) -> list[str]:
    """Enrol the signed-in user's authenticator through the page; its recovery codes."""
    page = _page(client.get("/account/authenticator"))
    assert page.select_one("img.qr-code")["src"].startswith("data:image/svg+xml")
    key = page.select_one(".totp-key").get_text()
    shown = client.post("/account/authenticator", data={"code": TOTP(key).at(_now())})
    return [c.get_text() for c in _page(shown).select(".recovery-codes code")]


def _now():
    return clock.utcnow()


def test_an_admin_gives_a_code_after_the_password(auth, client, portal_clock):
    email = auth.create("admin")
    response = _password(client, email)
    assert response.headers["Location"] == "/login/code"
    assert not _signed_in(client), "the password alone does not sign in"
    assert _code(client, current_code(client.application, email)).status_code == 302
    assert _signed_in(client)


def test_a_wrong_code_is_refused_beside_the_field(auth, client, portal_clock):
    email = auth.create("admin")
    _password(client, email)
    wrong = _code(client, wrong_code(current_code(client.application, email)))
    assert wrong.status_code == 200
    assert "not right" in _field_error(wrong)
    assert not _signed_in(client)


def test_a_code_works_once(auth, client, app, portal_clock):
    email = auth.create("admin")
    code = TOTP(TEST_TOTP_SECRET).at(_now())
    _password(client, email)
    assert _code(client, code).status_code == 302
    client.post("/logout")
    _password(client, email)
    replayed = _code(client, code)
    assert replayed.status_code == 200, "replayed"
    assert _field_error(replayed).startswith("That code was already used.")
    portal_clock.advance(STEP_SECONDS)
    assert _code(client, TOTP(TEST_TOTP_SECRET).at(_now())).status_code == 302


@pytest.mark.parametrize(("steps_ago", "accepted"), [(1, True), (2, False), (-1, True),
                                                      (-2, False)])
def test_one_step_of_clock_drift_is_accepted(auth, client, portal_clock, steps_ago, accepted):
    email = auth.create("admin")
    code = TOTP(TEST_TOTP_SECRET).at(_now() - timedelta(seconds=STEP_SECONDS * steps_ago))
    _password(client, email)
    assert (_code(client, code).status_code == 302) is accepted


def test_repeated_wrong_codes_lock_the_account(auth, client, app, portal_clock):
    """The right password's attempt counts until the code is right too, so that typing the
    password again does not buy more code guesses."""
    email = auth.create("admin")
    _password(client, email)
    for _ in range(ACCOUNT_LIMIT - 2):
        assert _code(client, "not a code").status_code == 200
    locked = _code(client, "not a code")
    assert locked.headers["Location"] == "/login"
    assert auth.login("admin").status_code == 200
    assert not _signed_in(client)


def test_the_code_page_needs_a_recent_password(auth, client, portal_clock):
    assert client.get("/login/code").headers["Location"].startswith("/login")
    email = auth.create("admin")
    _password(client, email)
    portal_clock.advance(SECOND_FACTOR_WINDOW.total_seconds() + 1)
    late = _code(client, current_code(client.application, email))
    assert late.headers["Location"] == "/login"
    assert not _signed_in(client)


def test_recovery_codes_work_once_each(auth, client, app, portal_clock):
    auth.login("ops")
    codes = _enrol(client)
    assert len(codes) == COUNT == len(set(codes))
    client.post("/logout")
    _password(client, "ops@example.com")
    assert _code(client, codes[0].upper()).status_code == 302
    client.post("/logout")
    _password(client, "ops@example.com")
    assert _code(client, codes[0]).status_code == 200, "spent"
    assert _code(client, codes[1]).status_code == 302
    assert f"{COUNT - 2} of your recovery codes" in client.get(
        "/account/authenticator").get_data(as_text=True)
    with app.app_context():
        factors = db.session.scalars(select(AuditEvent.detail).where(
            AuditEvent.action == "user.login", AuditEvent.outcome == "ok")).all()
    assert [d.get("second_factor") for d in factors] == [None, "recovery_code", "recovery_code"]


def test_an_admin_without_an_authenticator_must_enrol_first(auth, client, app, portal_clock):
    email = auth.create("admin")
    with app.app_context():
        remove_authenticator(find_user(email))
        db.session.commit()
    assert _password(client, email).headers["Location"] == "/merchants"
    for path in ("/merchants", "/admin/", "/account/password"):
        assert client.get(path).headers["Location"] == "/account/authenticator"
    assert len(_enrol(client)) == COUNT
    assert _signed_in(client)


def test_the_enrolment_key_is_shown_once_and_never_after(auth, client, portal_clock):
    auth.login("ops")
    first = _page(client.get("/account/authenticator")).select_one(".totp-key").get_text()
    wrong = client.post("/account/authenticator", data={"code": "123"})
    assert "not right" in _field_error(wrong)
    assert first not in wrong.get_data(as_text=True)
    client.post("/account/authenticator", data={"code": TOTP(first).at(_now())})
    after = client.get("/account/authenticator").get_data(as_text=True)
    assert first not in after
    assert "qr-code" not in after


def test_ops_users_may_skip_the_authenticator(auth, client):
    auth.login("ops")
    assert _signed_in(client)


def test_a_setting_requires_it_of_everyone(settings, auth):
    app = create_app(settings.with_changes(mfa_for_everyone=True))
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    email = auth.create("ops")
    client.post("/login", data={"email": email, "password": TEST_PASSWORD})
    assert client.get("/merchants").headers["Location"] == "/account/authenticator"


def test_the_cli_removes_a_lost_authenticator(auth, client, runner, app, portal_clock):
    auth.login("admin")
    result = runner.invoke(args=["users", "reset-authenticator", "admin@example.com"])
    assert result.exit_code == 0, result.output
    assert client.get("/merchants").headers["Location"].startswith("/login"), "signed out"
    assert _password(client, "admin@example.com").headers["Location"] == "/merchants"
    assert client.get("/merchants").headers["Location"] == "/account/authenticator"
