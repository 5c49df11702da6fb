"""Sign-in and sign-out pages."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.audit import record
from portal.auth.access import public
from portal.auth.accounts import authenticate
from portal.auth.forms import LoginForm
from portal.auth.sessions import end_session, start_session
from portal.db import db
from portal.main.routes import home_url

bp = Blueprint("auth", __name__)

SIGN_IN_FAILED = ("Sign-in failed. Check your email and password; after repeated failures "
                  "sign-in is paused for 15 minutes.")


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
        address = request.remote_addr or "unknown"
        user = authenticate(form.email.data, form.password.data, address)
        if user is None:
            record("user.login", outcome="failed", actor_label="anonymous",
                   detail={"email": form.email.data, "address": address})
            db.session.commit()
            flash(SIGN_IN_FAILED, "error")
            return render_template("auth/login.html", form=form)
        start_session(user)
        record("user.login")
        db.session.commit()
        return redirect(safe_next(request.args.get("next")))
    return render_template("auth/login.html", form=form)


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    """Sign out (POST with a CSRF token, so other sites cannot sign users out)."""
    record("user.logout")
    db.session.commit()
    end_session()
    flash("You have been signed out.", "info")
    return redirect(url_for("auth.login"))
