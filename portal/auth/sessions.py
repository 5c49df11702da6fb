"""Sign-in sessions: flask-login wiring, a fresh session on sign-in, and the idle timeout.

The cookie's lifetime (PERMANENT_SESSION_LIFETIME) ends idle sessions in the browser; the
last-seen time kept inside the signed session ends them on the server too, so a replayed
old cookie is refused.
"""

from __future__ import annotations

from datetime import timedelta

from flask import Flask, redirect, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_login import LoginManager, current_user, login_user, logout_user

from portal import clock
from portal.audit import record
from portal.auth.access import deny_anonymous, require_login
from portal.auth.accounts import authenticate
from portal.config import current_settings
from portal.db import db
from portal.models import User

LAST_SEEN_KEY = "last_seen"

login_manager = LoginManager()


def load_user(user_id: str) -> User | None:
    """The signed-in user for flask-login; a deactivated user counts as signed out."""
    user = db.session.get(User, int(user_id)) if user_id.isdigit() else None
    return user if user is not None and user.active else None


def start_session(user: User) -> None:
    """Sign ``user`` in on a brand-new session, so nothing planted before sign-in survives."""
    session.clear()
    session.permanent = True
    login_user(user, fresh=True)
    session[LAST_SEEN_KEY] = clock.utcnow().timestamp()


def end_session() -> None:
    """Sign out and drop everything the session held."""
    logout_user()
    session.clear()


def sign_in(email: str, password: str, address: str) -> User | None:
    """Check the credentials and start a fresh session; audit either way (the caller commits)."""
    user = authenticate(email, password, address)
    if user is None:
        record("user.login", outcome="failed", actor_label="anonymous",
               detail={"email": email, "address": address})
        return None
    start_session(user)
    record("user.login")
    return user


def sign_out() -> None:
    """Audit the sign-out, then end the session (the caller commits)."""
    record("user.logout")
    end_session()


def end_stale_session() -> None:
    """Before each request: sign out idle or deactivated users, else note that they were seen."""
    if "_user_id" not in session:
        return
    now = clock.utcnow().timestamp()
    idle = timedelta(minutes=current_settings().session_idle_minutes).total_seconds()
    last_seen = session.get(LAST_SEEN_KEY)
    if not current_user.is_authenticated or last_seen is None or now - last_seen > idle:
        end_session()
        return
    session[LAST_SEEN_KEY] = now


#: Endpoints a user with a one-time password may still reach.
PASSWORD_CHANGE_ENDPOINTS = frozenset({"auth.password", "auth.logout", "static"})


def require_own_password() -> ResponseReturnValue | None:
    """Before each request: send a user still on a one-time password to choose their own."""
    if (current_user.is_authenticated and current_user.must_change_password
            and request.endpoint not in PASSWORD_CHANGE_ENDPOINTS):
        return redirect(url_for("auth.password"))
    return None


def init_sessions(app: Flask) -> None:
    """Wire flask-login, the idle timeout and the deny-by-default guard into ``app``."""
    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    login_manager.user_loader(load_user)
    login_manager.unauthorized_handler(deny_anonymous)
    app.before_request(end_stale_session)
    app.before_request(require_login)
    app.before_request(require_own_password)
