"""Pages of notices: a user's notices, marking them read, and their account page (how notices
are emailed, their password and two-step sign-in)."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.core.config import current_settings
from portal.core.db import db
from portal.features.notifications import inbox, preferences
from portal.features.notifications.forms import NoticeModeForm
from portal.features.notifications.words import words_for
from portal.web.auth.access import roles_required
from portal.web.auth.roles import STAFF

bp = Blueprint("notifications", __name__)


@bp.get("/notices")
@roles_required(*STAFF)
def index() -> ResponseReturnValue:
    """The user's notices, newest first, a page at a time; unread ones marked."""
    page = inbox.page_of(current_user.id, request.args.get("page", 1, type=int))
    return render_template("notifications/index.html", page=page, notices=words_for(page.rows),
                           unread=inbox.unread_count(current_user.id))


@bp.post("/notices/read")
@roles_required(*STAFF)
def read() -> ResponseReturnValue:
    """Mark every notice of the user read."""
    inbox.mark_read(current_user.id)
    db.session.commit()
    flash("Every notice is marked as read.", "success")
    return redirect(url_for(".index"))


@bp.route("/account", methods=["GET", "POST"])
@roles_required(*STAFF)
def account() -> ResponseReturnValue:
    """The user's account: how notices are emailed, and links to password and two-step
    sign-in."""
    form = NoticeModeForm(mode=current_user.notice_mode)
    if form.validate_on_submit():
        preferences.choose(current_user, form.mode.data)
        db.session.commit()
        flash("Saved: " + preferences.CHOICES[form.mode.data].lower() + ".", "success")
        return redirect(url_for(".account"))
    status = 400 if request.method == "POST" else 200
    return render_template("notifications/account.html", form=form,
                           digest_hour=current_settings().notice_digest_hour), status
