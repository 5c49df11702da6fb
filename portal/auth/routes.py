"""Sign-in and sign-out pages."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.audit import record
from portal.auth.access import public
from portal.auth.accounts import PasswordRefused, change_password
from portal.auth.forms import LoginForm, PasswordChangeForm
from portal.auth.passwords import MIN_LENGTH
from portal.auth.sessions import sign_in, sign_out
from portal.auth.throttle import LOCK_DURATION
from portal.db import db
from portal.main.routes import home_url

bp = Blueprint("auth", __name__)

SIGN_IN_FAILED = ("Sign-in failed. Check your email and password; after repeated failures "
                  f"sign-in is paused for {LOCK_DURATION.seconds // 60} minutes.")


def safe_next(target: str | None) -> str:
    """``target`` if it stays on this site, else the home page."""
    parts = urlsplit((target or "").replace("\\", "/"))
    if not target or not target.startswith("/") or parts.netloc or parts.scheme:
        return home_url()
    return target


@bp.route("/login", methods=["GET", "POST"])
@public
def login() -> ResponseReturnValue:
    """Show the sign-in form; on valid credentials start a new session."""
    if current_user.is_authenticated:
        return redirect(home_url())
    form = LoginForm()
    if form.validate_on_submit():
        user = sign_in(form.email.data, form.password.data, request.remote_addr or "unknown")
        db.session.commit()
        if user is not None:
            return redirect(safe_next(request.args.get("next")))
        flash(SIGN_IN_FAILED, "error")
    return render_template("auth/login.html", form=form)


@bp.route("/account/password", methods=["GET", "POST"])
def password() -> ResponseReturnValue:
    """Let a signed-in user replace their password (required after a one-time password)."""
    form = PasswordChangeForm()
    if form.validate_on_submit():
        try:
            change_password(current_user, form.current_password.data, form.new_password.data)
        except PasswordRefused as exc:
            form[exc.field].errors.append(str(exc))
        else:
            record("user.password_change")
            db.session.commit()
            flash("Your password has been changed.", "success")
            return redirect(home_url())
    return render_template("auth/password.html", form=form, min_length=MIN_LENGTH)


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    """Sign out (POST with a CSRF token, so other sites cannot sign users out)."""
    sign_out()
    db.session.commit()
    flash("You have been signed out.", "info")
    return redirect(url_for("auth.login"))
