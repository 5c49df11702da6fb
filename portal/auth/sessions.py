"""Sign-in sessions: flask-login wiring, a fresh session on sign-in, and the idle timeout.

The cookie's lifetime (PERMANENT_SESSION_LIFETIME) ends idle sessions in the browser; the
last-seen time kept inside the signed session ends them on the server too, so a replayed
old cookie is refused.
"""

from __future__ import annotations

from datetime import timedelta

from flask import Flask, flash, g, redirect, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_login import LoginManager, current_user, login_user, logout_user
from flask_wtf.csrf import CSRFError

from portal import clock
from portal.audit import record
from portal.auth import held_forms
from portal.auth.access import ENDED_USER, deny_anonymous, require_login, session_ended
from portal.auth.accounts import authenticate
from portal.config import current_settings
from portal.db import db
from portal.errors.handlers import http_error
from portal.models import User

LAST_SEEN_KEY = "last_seen"
PAGE_EXPIRED = ("This page had been open too long for its form to be accepted, so nothing "
                "was saved. What you typed is back below: check it and save again.")

login_manager = LoginManager()


def load_user(user_id: str) -> User | None:
    """The signed-in user for flask-login; a deactivated user counts as signed out."""
    user = db.session.get(User, int(user_id)) if user_id.isdigit() else None
    return user if user is not None and user.active else None


def start_session(user: User) -> None:
    """Sign ``user`` in on a brand-new session, so nothing planted before sign-in survives
    (but the claim on a form held while signed out, see portal.auth.held_forms)."""
    held = held_forms.carried_token()
    session.clear()
    session.permanent = True
    login_user(user, fresh=True)
    session[LAST_SEEN_KEY] = clock.utcnow().timestamp()
    if held:
        session[held_forms.SESSION_KEY] = held


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


def is_stale() -> bool:
    """The session's user is idle past the timeout or no longer active."""
    now = clock.utcnow().timestamp()
    idle = timedelta(minutes=current_settings().session_idle_minutes).total_seconds()
    last_seen = session.get(LAST_SEEN_KEY)
    return not current_user.is_authenticated or last_seen is None or now - last_seen > idle


def end_stale_session() -> None:
    """Before each request: sign out idle or deactivated users, else note that they were seen."""
    if "_user_id" not in session:
        return
    if is_stale():
        g.setdefault(ENDED_USER, current_user.get_id())  # whose typing a refused post holds
        end_session()
        return
    session[LAST_SEEN_KEY] = clock.utcnow().timestamp()


def expired_form(error: CSRFError) -> ResponseReturnValue:
    """A post whose CSRF token (or the session holding it) expired: on pages that keep typing,
    hold what was posted and bring it back after sign-in; elsewhere the 400 page."""
    if not held_forms.holdable():
        return http_error(error)
    if current_user.is_authenticated and not is_stale():
        held_forms.hold(int(current_user.get_id()))
        flash(PAGE_EXPIRED, "warning")
        return redirect(request.path)
    user_id = str(session.get("_user_id") or "")  # who the expired session was, if it says
    end_session()
    held_forms.hold(int(user_id) if user_id.isdigit() else None)
    return session_ended()


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
    app.register_error_handler(CSRFError, expired_form)
