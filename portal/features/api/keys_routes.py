"""The admins' page of API keys: create one (its token shown once), see when each was last
used, revoke one. A key with the payments scope opens only once a second admin approves."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.core import clock
from portal.core.db import db
from portal.core.models.api_key import ApiKey
from portal.core.models.user import Role
from portal.domain.api import keys
from portal.domain.api.scopes import SCOPE_WORDS
from portal.domain.four_eyes.requests import RequestRefused, request_api_key
from portal.features.api.keys_forms import NewKeyForm, RevokeForm
from portal.web.auth.access import current_actor, roles_required

bp = Blueprint("api_keys", __name__, url_prefix="/admin/api-keys")


@bp.get("/")
@roles_required(Role.ADMIN)
def index() -> ResponseReturnValue:
    """Every key, and the form for a new one."""
    return page(NewKeyForm())


@bp.post("/")
@roles_required(Role.ADMIN)
def create() -> ResponseReturnValue:
    """Create a key and show its token this once; one with payments waits for approval."""
    form = NewKeyForm()
    if form.validate_on_submit():
        expires = (datetime.combine(form.expires_on.data + timedelta(days=1), time.min,
                                    tzinfo=UTC) if form.expires_on.data else None)
        try:
            if keys.needs_second_admin(form.scopes.data):
                issued, _request = request_api_key(form.name.data, form.scopes.data, expires,
                                                   form.reason.data, current_user.id)
            else:
                issued = keys.stage_key(form.name.data, form.scopes.data, expires,
                                        current_user.id, current_actor())
                db.session.commit()
        except (keys.KeyRefused, RequestRefused) as exc:
            db.session.rollback()
            getattr(form, exc.field or "name").errors = [exc.message]
        else:
            return page(NewKeyForm(formdata=None), issued=issued)
    return page(form), 400


@bp.post("/<int:key_id>/revoke")
@roles_required(Role.ADMIN)
def revoke(key_id: int) -> ResponseReturnValue:
    """Revoke a key for good."""
    key = db.session.get(ApiKey, key_id) or abort(404)
    if RevokeForm().validate_on_submit() and keys.revoke(key.id, current_actor()):
        flash(f"The key {key.name} is revoked: it opens nothing any more.", "success")
    else:
        flash(f"The key {key.name} was revoked already.", "info")
    return redirect(url_for(".index"))


def page(form: NewKeyForm, issued: keys.IssuedKey | None = None) -> str:
    """The keys page; ``issued``: the key just created, whose token is shown this once."""
    return render_template("api/keys.html", form=form, keys=keys.every_key(), issued=issued,
                           scope_words=SCOPE_WORDS, revoke_form=RevokeForm(),
                           now=clock.utcnow())
