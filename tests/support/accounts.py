"""Accounts for tests: users signed in, their two-step codes."""

from __future__ import annotations

from bs4 import BeautifulSoup
from pyotp import TOTP

from portal.core import clock
from portal.core.db import db
from portal.core.models import Role
from portal.domain.users.accounts import create_user, find_user

TEST_PASSWORD = "correct horse battery staple"


#: The authenticator secret of every admin the suite creates (admins must use two-step sign-in).
TEST_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


def enrol_authenticator(app, email: str, secret: str = TEST_TOTP_SECRET) -> None:
    """Give ``email`` a confirmed authenticator with ``secret``, as if they had enrolled."""
    with app.app_context():
        user = find_user(email)
        user.totp_secret = secret
        user.totp_enrolled_at = clock.utcnow()
        db.session.commit()


def current_code(app, email: str, secret: str = TEST_TOTP_SECRET) -> str:
    """The authenticator code for ``email`` at the portal's clock, reusable: the suite signs the
    same admin in several times within one 30-second step, so the replay guard's memory of the
    last step is cleared first (tests/auth/test_mfa.py tests that guard itself)."""
    with app.app_context():
        find_user(email).totp_last_step = None
        db.session.commit()
    return TOTP(secret).at(clock.utcnow())


def wrong_code(right: str) -> str:
    """Six digits that are not ``right``."""
    return "000000" if right != "000000" else "111111"


def pass_second_factor(app, client, email: str, response, code: str | None = None):
    """Answer the code page if ``response`` (to a sign-in) sent the client there."""
    location = response.headers.get("Location", "")
    if response.status_code != 302 or not location.startswith("/login/code"):
        return response
    return client.post(location, data=with_csrf_token(app, client, location, {
        "code": code or current_code(app, email)}))


def with_csrf_token(app, client, path: str, data: dict[str, str]) -> dict[str, str]:
    """``data`` plus the CSRF token of the form at ``path`` when ``app`` checks CSRF."""
    if not app.config.get("WTF_CSRF_ENABLED", True):
        return data
    field = BeautifulSoup(client.get(path).data, "html.parser").find(
        "input", {"name": "csrf_token"})
    return {**data, "csrf_token": field["value"]} if field else data


class AuthActions:
    """Sign in through the real forms as a user of a given role, created on first use; admins
    are created with an authenticator, and the helper types its current code."""

    def __init__(self, app, client) -> None:
        self._app = app
        self._client = client

    def create(self, role: str = "ops", email: str | None = None,
               password: str = TEST_PASSWORD, active: bool = True) -> str:
        """Create the user unless it exists, and return its email."""
        email = email or f"{role}@example.com"
        with self._app.app_context():
            created = find_user(email) is None
            if created:
                create_user(email, password, Role(role)).active = active
                db.session.commit()
        if created and role == Role.ADMIN:
            enrol_authenticator(self._app, email)
        return email

    def login(self, role: str = "ops", email: str | None = None,
              password: str = TEST_PASSWORD):
        """Post the sign-in form (and the code, for a user with an authenticator); the user is
        created first if needed."""
        email = self.create(role, email)
        response = self._client.post("/login", data=with_csrf_token(
            self._app, self._client, "/login", {"email": email, "password": password}))
        return pass_second_factor(self._app, self._client, email, response)

    def logout(self):
        """Post the sign-out form."""
        return self._client.post("/logout")
