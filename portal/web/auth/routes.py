"""Sign-in, second-factor, sign-out and change-password pages."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.core import clock
from portal.core.db import db
from portal.domain.audit.service import record
from portal.domain.users import mfa, recovery_codes
from portal.domain.users.accounts import PasswordRefused, change_password, is_locked
from portal.domain.users.passwords import MIN_LENGTH
from portal.domain.users.throttle import LOCK_DURATION
from portal.web.auth.access import current_actor, public
from portal.web.auth.forms import LoginForm, PasswordChangeForm, SecondFactorForm
from portal.web.auth.home import home_url
from portal.web.auth.sessions import (
    SignIn,
    end_session,
    pending_user,
    sign_in,
    sign_in_with_code,
    sign_out,
    start_session,
)

bp = Blueprint("auth", __name__)

PAUSE_MINUTES = LOCK_DURATION.seconds // 60
SIGN_IN_FAILED = ("Sign-in failed. Check your email and password; after repeated failures "
                  f"sign-in is paused for {PAUSE_MINUTES} minutes.")
CODE_USED = ("That code was already used. Wait for your authenticator app to show the next "
             "one (a new code every 30 seconds) and type it, or use one of your recovery codes.")
CODE_FAILED = ("That code is not right. Type the 6-digit code your authenticator app shows now, "
               "or one of your recovery codes.")
PASSWORD_GUESSES = (f"Too many wrong passwords: you have been signed out, and sign-in is paused "
                    f"for {PAUSE_MINUTES} minutes.")


def codes_left_message(left: int) -> str:
    """What a user who signed in with a recovery code is told."""
    if left == 0:
        return ("You signed in with your last recovery code. Ask an administrator to reset your "
                "two-step sign-in now (Team page), then set it up again for new codes.")
    return (f"You signed in with a recovery code: {left} {'is' if left == 1 else 'are'} left. "
            "If you have lost your authenticator app, ask an administrator to reset your "
            "two-step sign-in (Team page) and set it up again for new codes.")


def safe_next(target: str | None) -> str:
    """``target`` if it stays on this site, else the home page."""
    parts = urlsplit((target or "").replace("\\", "/"))
    if not target or not target.startswith("/") or parts.netloc or parts.scheme:
        return home_url()
    return target


def _address() -> str:
    return request.remote_addr or "unknown"


@bp.route("/login", methods=["GET", "POST"])
@public
def login() -> ResponseReturnValue:
    """Show the sign-in form; on valid credentials start a session or ask for the code."""
    if current_user.is_authenticated:
        return redirect(home_url())
    form = LoginForm()
    if form.validate_on_submit():
        outcome = sign_in(form.email.data, form.password.data, _address())
        db.session.commit()
        if outcome is SignIn.CODE_NEEDED:
            return redirect(url_for("auth.login_code", next=request.args.get("next")))
        if outcome is SignIn.SIGNED_IN:
            return redirect(safe_next(request.args.get("next")))
        flash(SIGN_IN_FAILED, "error")
    return render_template("auth/login.html", form=form)


@bp.route("/login/code", methods=["GET", "POST"])
@public
def login_code() -> ResponseReturnValue:
    """Ask a user whose password was right for their authenticator or recovery code; after a
    recovery code, say how many are left."""
    user = pending_user()
    if user is None:
        return redirect(url_for("auth.login", next=request.args.get("next")))
    form = SecondFactorForm()
    if form.validate_on_submit():
        codes_before = recovery_codes.unused_count(user.id)
        outcome = sign_in_with_code(form.code.data, _address())
        db.session.commit()
        if outcome is SignIn.SIGNED_IN:
            left = recovery_codes.unused_count(user.id)
            if left < codes_before:
                flash(codes_left_message(left), "warning")
            return redirect(safe_next(request.args.get("next")))
        if outcome is SignIn.START_OVER:
            flash(SIGN_IN_FAILED, "error")
            return redirect(url_for("auth.login"))
        used = mfa.code_used_before(user, form.code.data, clock.utcnow())
        form.code.errors.append(CODE_USED if used else CODE_FAILED)
    return render_template("auth/code.html", form=form)


@bp.route("/account/password", methods=["GET", "POST"])
def password() -> ResponseReturnValue:
    """Let a signed-in user replace their password (required after a one-time password)."""
    form = PasswordChangeForm()
    if form.validate_on_submit():
        try:
            change_password(current_user, form.current_password.data, form.new_password.data,
                            _address())
        except PasswordRefused as exc:
            if is_locked(current_user, _address()):
                return _signed_out_after_guesses()
            db.session.commit()  # the throttle's count of the wrong guess
            form[exc.field].errors.append(str(exc))
        else:
            record("user.password_change", actor=current_actor())
            start_session(current_user._get_current_object())  # the user, not the proxy
            db.session.commit()
            flash("Your password has been changed; your other sessions have ended.", "success")
            return redirect(home_url())
    return render_template("auth/password.html", form=form, min_length=MIN_LENGTH)


def _signed_out_after_guesses() -> ResponseReturnValue:
    record("user.password_change", actor=current_actor(), outcome="locked")
    end_session()
    db.session.commit()
    flash(PASSWORD_GUESSES, "error")
    return redirect(url_for("auth.login"))


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    """Sign out (POST with a CSRF token, so other sites cannot sign users out)."""
    sign_out()
    db.session.commit()
    flash("You have been signed out.", "info")
    return redirect(url_for("auth.login"))
