"""One-time passwords (the first admin and CLI-created users must choose their own password
within a day) and password changes, throttled like sign-in."""

from __future__ import annotations

import re
from datetime import timedelta

from bs4 import BeautifulSoup

from portal.core.db import db
from portal.domain.users.accounts import find_user
from portal.domain.users.throttle import ACCOUNT_LIMIT
from tests.support.accounts import TEST_PASSWORD

NEW_PASSWORD = "a much longer passphrase of mine"
#: ONE_TIME_PASSWORD_HOURS's default.
ONE_TIME_PASSWORD_LIFETIME = timedelta(hours=24)


def _one_time_admin(runner) -> str:
    result = runner.invoke(args=["users", "ensure-admin"])
    return re.search(r"One-time password \(shown once\): (\S+)", result.output).group(1)


def _sign_in(client, email: str, password: str):
    return client.post("/login", data={"email": email, "password": password})


def _errors(response) -> dict[str, str]:
    soup = BeautifulSoup(response.data, "html.parser")
    found = {}
    for name in ("current_password", "new_password", "confirm_password"):
        field = soup.find("input", attrs={"name": name})
        described = field.get("aria-describedby", "") if field else ""
        texts = [soup.find(id=i).get_text(" ", strip=True) for i in described.split()
                 if soup.find(id=i) is not None and "error" in i]
        if texts:
            found[name] = " ".join(texts)
    return found


def test_one_time_password_must_be_replaced_before_anything_else(runner, client):
    one_time = _one_time_admin(runner)
    response = _sign_in(client, "admin@localhost", one_time)
    assert response.headers["Location"].endswith("/merchants")
    for path in ("/merchants", "/admin/", "/payments"):
        answer = client.get(path)
        assert answer.status_code == 302
        assert answer.headers["Location"].endswith("/account/password")
    page = client.get("/account/password")
    assert "one-time password" in page.get_data(as_text=True)


def test_changing_the_password_frees_the_account(app, runner, client):
    one_time = _one_time_admin(runner)
    _sign_in(client, "admin@localhost", one_time)
    response = client.post("/account/password", data={
        "current_password": one_time, "new_password": NEW_PASSWORD,
        "confirm_password": NEW_PASSWORD})
    assert response.status_code == 302
    answer = client.get("/merchants")  # an admin goes on to set up an authenticator
    assert answer.headers["Location"] == "/account/authenticator"
    assert client.get("/account/authenticator").status_code == 200
    with app.app_context():
        assert find_user("admin@localhost").must_change_password is False
    client.post("/logout")
    assert _sign_in(client, "admin@localhost", one_time).status_code == 200  # refused
    assert _sign_in(client, "admin@localhost", NEW_PASSWORD).status_code == 302


def test_refusals_are_shown_beside_their_field(runner, client):
    one_time = _one_time_admin(runner)
    _sign_in(client, "admin@localhost", one_time)
    cases = [
        ({"current_password": "wrong one entirely", "new_password": NEW_PASSWORD,
          "confirm_password": NEW_PASSWORD}, "current_password", "not right"),
        ({"current_password": one_time, "new_password": "short", "confirm_password": "short"},
         "new_password", "at least"),
        ({"current_password": one_time, "new_password": one_time, "confirm_password": one_time},
         "new_password", "different"),
        ({"current_password": one_time, "new_password": NEW_PASSWORD,
          "confirm_password": NEW_PASSWORD + "x"}, "confirm_password", "differ"),
    ]
    for data, field, words in cases:
        response = client.post("/account/password", data=data)
        assert response.status_code == 200
        assert words in _errors(response).get(field, ""), (field, _errors(response))
    assert client.get("/merchants").status_code == 302  # still on the one-time password


def test_users_with_a_chosen_password_are_not_asked(app, client, auth):
    auth.login(role="ops")
    assert client.get("/merchants").status_code == 200
    with app.app_context():
        assert find_user("ops@example.com").must_change_password is False
        db.session.rollback()
    response = client.post("/account/password", data={
        "current_password": TEST_PASSWORD, "new_password": NEW_PASSWORD,
        "confirm_password": NEW_PASSWORD})
    assert response.status_code == 302


def test_cli_created_users_get_a_one_time_password(app, runner):
    runner.invoke(args=["users", "create", "new.ops@example.com", "--role", "ops"])
    with app.app_context():
        assert find_user("new.ops@example.com").must_change_password is True


def test_current_password_guesses_are_throttled_and_end_the_session(auth, client):
    auth.login()
    wrong = {"current_password": "not my password at all", "new_password": NEW_PASSWORD,
             "confirm_password": NEW_PASSWORD}
    for _ in range(ACCOUNT_LIMIT - 1):
        assert "not right" in _errors(client.post("/account/password", data=wrong)).get(
            "current_password", "")
    last = client.post("/account/password", data=wrong)
    assert last.status_code == 302 and last.headers["Location"] == "/login"
    assert client.get("/merchants").headers["Location"].startswith("/login")
    assert auth.login().status_code == 200, "sign-in is paused too"


def test_a_right_current_password_resets_the_count(auth, client):
    auth.login()
    wrong = {"current_password": "not my password at all", "new_password": NEW_PASSWORD,
             "confirm_password": NEW_PASSWORD}
    for _ in range(ACCOUNT_LIMIT - 1):
        client.post("/account/password", data=wrong)
    assert client.post("/account/password", data={
        "current_password": TEST_PASSWORD, "new_password": NEW_PASSWORD,
        "confirm_password": NEW_PASSWORD}).status_code == 302
    client.post("/account/password", data=wrong)
    assert client.get("/merchants").status_code == 200


def test_one_time_passwords_work_for_a_day_only(runner, client, portal_clock):
    one_time = _one_time_admin(runner)
    portal_clock.advance(ONE_TIME_PASSWORD_LIFETIME.total_seconds() + 1)
    refused = _sign_in(client, "admin@localhost", one_time)
    assert refused.status_code == 200
    assert "Sign-in failed" in refused.get_data(as_text=True)


def test_one_time_passwords_work_until_they_expire(runner, client, portal_clock):
    one_time = _one_time_admin(runner)
    portal_clock.advance(ONE_TIME_PASSWORD_LIFETIME.total_seconds() - 60)
    assert _sign_in(client, "admin@localhost", one_time).status_code == 302


def test_a_chosen_password_does_not_expire(app, runner, client, portal_clock):
    one_time = _one_time_admin(runner)
    _sign_in(client, "admin@localhost", one_time)
    client.post("/account/password", data={
        "current_password": one_time, "new_password": NEW_PASSWORD,
        "confirm_password": NEW_PASSWORD})
    client.post("/logout")
    portal_clock.advance(ONE_TIME_PASSWORD_LIFETIME.total_seconds() * 2)
    assert _sign_in(client, "admin@localhost", NEW_PASSWORD).status_code == 302
