"""Pages of the worklist: "Needs my action" (the landing page of ops), an admin's tab across
everyone, and noting that a rejected merchant was told."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.user import Role
from portal.domain.onboarding.drafts import get_merchant
from portal.domain.worklist.actors import FILTERS, only, waits_for
from portal.domain.worklist.reasons import Reason
from portal.domain.worklist.service import mark_told, worklist
from portal.features.worklist.forms import ToldForm
from portal.web.auth.access import roles_required
from portal.web.auth.roles import STAFF

bp = Blueprint("worklist", __name__)


def _page(everyone: bool) -> str:
    """The worklist, only what waits for ``?who=`` (us, merchant, gateway) when asked."""
    now = clock.utcnow()
    found = worklist(current_user, current_settings(), now, everyone=everyone)
    who = request.args.get("who", "")
    return render_template("worklist/index.html", worklist=found, everyone=everyone,
                           items=only(found.items, who), who=who if who in FILTERS else "",
                           filters=FILTERS, waits_for=waits_for, now=now,
                           told=Reason.REJECTED_UNTOLD, told_form=ToldForm(
                               back="everyone" if everyone else "mine"))


@bp.get("/worklist")
@roles_required(*STAFF)
def index() -> ResponseReturnValue:
    """What the merchants the user owns need now, most urgent first (and an admin's
    approvals)."""
    return _page(everyone=False)


@bp.get("/worklist/everyone")
@roles_required(Role.ADMIN)
def everyone() -> ResponseReturnValue:
    """What every merchant needs, with its owner, and who carries what."""
    return _page(everyone=True)


@bp.post("/merchants/<int:merchant_id>/rejection-told")
@roles_required(*STAFF)
def told(merchant_id: int) -> ResponseReturnValue:
    """Note that the rejected merchant was told (its owner, or an admin)."""
    merchant = get_merchant(merchant_id) or abort(404)
    form = ToldForm()
    back = url_for(".everyone" if form.back.data == "everyone" else ".index")
    if not form.validate_on_submit():
        return redirect(back)
    if current_user.role != Role.ADMIN and merchant.owner_id != current_user.id:
        flash(f"Only the owner of {merchant.name} or an admin can note that.", "error")
    elif mark_told(merchant, current_user):
        db.session.commit()
        flash(f"Noted: {merchant.name} was told of its rejection.", "success")
    return redirect(back)
