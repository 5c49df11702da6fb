"""Sign-in sessions: flask-login wiring, a fresh session on sign-in, the idle timeout and the
absolute lifetime, and the pause between the password and the second factor.

Each session is recorded on the server (``session_records``): the signed cookie carries its
token, and a session whose record is gone (sign-out, password change, deactivation) or older
than SESSION_MAX_HOURS is refused however often its cookie was copied or refreshed. The
last-seen time inside the signed cookie ends idle sessions, so a replayed old cookie is refused;
the cookie itself lasts SESSION_MAX_HOURS, so after an idle ending the server still knows whose
session it was (and whose typing a refused post holds).
"""

from __future__ import annotations

from datetime import timedelta
from enum import Enum

from flask import Flask, flash, g, redirect, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_login import LoginManager, current_user, login_user, logout_user
from flask_wtf.csrf import CSRFError

from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models import User
from portal.domain.audit.service import ANONYMOUS, Actor, record
from portal.domain.users import mfa, passwords, session_records
from portal.domain.users.accounts import authenticate, find_user, is_locked, note_sign_in, throttled
from portal.domain.users.metrics import SIGN_IN_FAILURES
from portal.web.auth import held_forms, session_end
from portal.web.auth.access import (
    ENDED_USER,
    current_actor,
    deny_anonymous,
    require_login,
    session_ended,
)
from portal.web.errors import http_error

LAST_SEEN_KEY = "last_seen"
PAGE_EXPIRED = ("This page had been open too long for its form to be accepted, so nothing "
                "was saved. What you typed is back below: check it and save again.")
PAGE_EXPIRED_NOT_KEPT = ("This page had been open too long for its form to be accepted, so "
                         "nothing was saved, and what you sent was too long to keep. Type it "
                         "again and save.")
SESSION_ID_KEY = "session_id"
#: The user who gave the right password and still owes a second factor, and since when.
PENDING_KEY = "second_factor_due"
#: How long the code page waits after the password before the password is asked again.
SECOND_FACTOR_WINDOW = timedelta(minutes=5)

login_manager = LoginManager()


class SignIn(Enum):
    """What a sign-in step led to."""

    FAILED = "failed"
    CODE_NEEDED = "code needed"
    SIGNED_IN = "signed in"
    START_OVER = "start over"


def _max_age() -> timedelta:
    return timedelta(hours=current_settings().session_max_hours)


def load_user(user_id: str) -> User | None:
    """The signed-in user for flask-login, if the session's record is live and the user active."""
    token = session.get(SESSION_ID_KEY)
    if not (token and user_id.isdigit()):
        return None
    user = session_records.live_user(token, int(user_id), clock.utcnow(), _max_age())
    return user if user is not None and user.active else None


def start_session(user: User) -> None:
    """Sign ``user`` in on a brand-new session, so nothing planted before sign-in survives
    (but the claim on a form held while signed out, see portal.web.auth.held_forms)."""
    _clear_keeping_held_form()
    session.permanent = True  # the cookie lasts SESSION_MAX_HOURS (PERMANENT_SESSION_LIFETIME)
    login_user(user, fresh=True)
    now = clock.utcnow()
    session[SESSION_ID_KEY] = session_records.open_session(user.id, now, _max_age())
    session[LAST_SEEN_KEY] = now.timestamp()
    session[session_end.SIGNED_IN_KEY] = now.timestamp()


def _clear_keeping_held_form() -> None:
    """Empty the session but for the claim on a form held while signed out (a random token)."""
    held = held_forms.carried_token()
    session.clear()
    if held:
        session[held_forms.SESSION_KEY] = held


def session_token() -> str | None:
    """The token of this browser's recorded session, if its cookie carries one."""
    token = session.get(SESSION_ID_KEY)
    return token if isinstance(token, str) else None


def recorded_owner() -> int | None:
    """The user this browser's session belongs to, as the server recorded it (even when it has
    just gone idle): None for a browser with no recorded session, or a cookie naming another
    user than its record."""
    token = session_token()
    owner = session_records.owner_of(token) if token else None
    return owner if owner is not None and str(owner) == str(session.get("_user_id")) else None


def end_session() -> None:
    """Sign out, end the session's record and drop everything the session held."""
    token = session.get(SESSION_ID_KEY)
    if token:
        session_records.close_session(token)
    logout_user()
    session.clear()


def _failed(email: str, address: str, step: str) -> None:
    known = find_user(email)
    detail = {"address": address, "step": step}
    if known is not None:
        detail["email"] = known.email
    record("user.login", actor=ANONYMOUS, outcome="failed", detail=detail)
    SIGN_IN_FAILURES.labels(step).inc()


def _complete(user: User, address: str, factor: mfa.SecondFactor | None = None) -> SignIn:
    note_sign_in(user, address)
    start_session(user)
    record("user.login", actor=Actor.of(user),
           detail={"second_factor": factor.value} if factor else None)
    return SignIn.SIGNED_IN


def sign_in(email: str, password: str, address: str) -> SignIn:
    """Check the password; sign in, or ask for the second factor of a user who has one.

    Audited either way (the caller commits).
    """
    user = authenticate(email, password, address)
    if user is None:
        _failed(email, address, "password")
        return SignIn.FAILED
    if user.has_totp:
        _clear_keeping_held_form()
        session[PENDING_KEY] = {"user": user.id, "since": clock.utcnow().timestamp(),
                                "password": passwords.fingerprint(user.password_hash)}
        return SignIn.CODE_NEEDED
    return _complete(user, address)


def pending_user() -> User | None:
    """The user whose password was right a moment ago and who now owes a code; None once the
    password has changed since (the old one must not open the account)."""
    pending = session.get(PENDING_KEY)
    if not isinstance(pending, dict):
        return None
    age = clock.utcnow().timestamp() - float(pending.get("since", 0))
    user = db.session.get(User, int(pending.get("user", 0)))
    if user is None or not user.active or age > SECOND_FACTOR_WINDOW.total_seconds():
        return None
    if not passwords.same_fingerprint(user.password_hash, pending.get("password", "")):
        return None
    return user


def sign_in_with_code(code: str, address: str) -> SignIn:
    """Check the second factor of the pending user, throttled like the password."""
    user = pending_user()
    if user is None:
        session.pop(PENDING_KEY, None)
        return SignIn.START_OVER
    factor = throttled(user, address, lambda u: mfa.check_second_factor(u, code, clock.utcnow()))
    if factor is None:
        _failed(user.email, address, "code")
        if is_locked(user, address):
            session.pop(PENDING_KEY, None)
            return SignIn.START_OVER
        return SignIn.FAILED
    return _complete(user, address, factor)


def sign_out() -> None:
    """Audit the sign-out, then end the session (the caller commits)."""
    record("user.logout", actor=current_actor())
    end_session()


def is_stale() -> bool:
    """The session's user is idle past the timeout or no longer active."""
    now = clock.utcnow().timestamp()
    idle = timedelta(minutes=current_settings().session_idle_minutes).total_seconds()
    last_seen = session.get(LAST_SEEN_KEY)
    return not current_user.is_authenticated or last_seen is None or now - last_seen > idle


def _ending() -> session_end.Ending:
    """Why the stale session of this request ended (see ``portal.web.auth.session_end``)."""
    settings = current_settings()
    return session_end.ending_of(
        recorded=current_user.is_authenticated, last_seen=session.get(LAST_SEEN_KEY),
        signed_in_at=session.get(session_end.SIGNED_IN_KEY),
        now=clock.utcnow().timestamp(), idle_minutes=settings.session_idle_minutes,
        max_hours=settings.session_max_hours)


def end_stale_session() -> None:
    """Before each request: sign out idle, ended or deactivated sessions, else note the visit."""
    if "_user_id" not in session:
        return
    if is_stale():
        owner = recorded_owner()
        if owner is not None:
            g.setdefault(ENDED_USER, owner)  # whose typing a post may hold
        g.setdefault(session_end.ENDING, _ending())  # what the sign-in page says of it
        end_session()
        return
    session[LAST_SEEN_KEY] = clock.utcnow().timestamp()


def expired_form(error: CSRFError) -> ResponseReturnValue:
    """A post whose CSRF token (or the session holding it) expired: on pages that keep typing,
    hold what was posted and bring it back after sign-in; elsewhere the 400 page."""
    if not held_forms.holdable():
        return http_error(error)
    if current_user.is_authenticated and not is_stale():
        if held_forms.hold(int(current_user.get_id())):
            flash(PAGE_EXPIRED, "warning")
        else:
            flash(PAGE_EXPIRED_NOT_KEPT, "error")
        return redirect(request.path)
    owner = recorded_owner()  # the server knows whose session it was, or nothing is held
    if session.get("_user_id"):
        g.setdefault(session_end.ENDING, _ending())
    end_session()
    return session_ended(kept=held_forms.hold(owner) if owner is not None else None)


#: Endpoints a user with a one-time password, or owing an authenticator, may still reach.
PASSWORD_CHANGE_ENDPOINTS = frozenset({"auth.password", "auth.logout", "static"})
ENROLMENT_ENDPOINTS = frozenset({"auth.enrol", "auth.logout", "static"})


def require_own_password_and_authenticator() -> ResponseReturnValue | None:
    """Before each request: send a user still on a one-time password to choose their own, then
    one who must use an authenticator but has none to enrol one."""
    if not current_user.is_authenticated:
        return None
    if current_user.must_change_password:
        if request.endpoint not in PASSWORD_CHANGE_ENDPOINTS:
            return redirect(url_for("auth.password"))
    elif (mfa.needs_enrolment(current_user, current_settings())
          and request.endpoint not in ENROLMENT_ENDPOINTS):
        return redirect(url_for("auth.enrol"))
    return None


def init_sessions(app: Flask) -> None:
    """Wire flask-login, the timeouts and the deny-by-default guard into ``app``."""
    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    login_manager.user_loader(load_user)
    login_manager.unauthorized_handler(deny_anonymous)
    app.before_request(end_stale_session)
    app.before_request(require_login)
    app.before_request(require_own_password_and_authenticator)
    app.register_error_handler(CSRFError, expired_form)
