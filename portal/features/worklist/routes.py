"""Pages of the worklist: "Needs my action" (the landing page of ops), an admin's tab across
everyone, and noting that a rejected merchant was told."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.user import Role
from portal.domain.merchant_mail import rejection
from portal.domain.merchant_mail.delivery import DeliveryError
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


def _back(form: ToldForm, merchant_id: int) -> str:
    """Where the form was posted from: either worklist tab, or the merchant's status page."""
    if form.back.data == "status":
        return url_for("status.page", merchant_id=merchant_id)
    return url_for(".everyone" if form.back.data == "everyone" else ".index")


def _may_tell(merchant: Merchant) -> bool:
    """The merchant's owner or an admin tells it; anyone else is told so."""
    if current_user.role != Role.ADMIN and merchant.owner_id != current_user.id:
        flash(f"Only the owner of {merchant.name} or an admin can tell it of its rejection.",
              "error")
        return False
    return True


@bp.post("/merchants/<int:merchant_id>/rejection-told")
@roles_required(*STAFF)
def told(merchant_id: int) -> ResponseReturnValue:
    """Note that the rejected merchant was told (its owner, or an admin)."""
    merchant = get_merchant(merchant_id) or abort(404)
    form = ToldForm()
    if form.validate_on_submit() and _may_tell(merchant) and mark_told(merchant, current_user):
        db.session.commit()
        flash(f"Noted: {merchant.name} was told of its rejection.", "success")
    return redirect(_back(form, merchant.id))


@bp.post("/merchants/<int:merchant_id>/rejection-email")
@roles_required(*STAFF)
def email_rejection(merchant_id: int) -> ResponseReturnValue:
    """Email the rejected merchant's signatory the rejection, and note it told."""
    merchant = get_merchant(merchant_id) or abort(404)
    form = ToldForm()
    if form.validate_on_submit() and _may_tell(merchant):
        try:
            shown = rejection.email_rejection(current_settings(), merchant, current_user)
        except DeliveryError as exc:
            flash(f"The rejection email was not sent: {exc}", "error")
        else:
            flash(f"The rejection was emailed to {shown}; {merchant.name} is noted as told.",
                  "success")
    return redirect(_back(form, merchant.id))
