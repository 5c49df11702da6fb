"""Pages of ownership: change a merchant's owner (with a note), take one nobody owns, notes.

The app-wide CSRFProtect checks every POST's token before these views run; any staff member
reads them, the service decides who may change what."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.onboarding.drafts import get_merchant
from portal.domain.ownership.notes import add_note, notes_of
from portal.domain.ownership.service import Change, OwnershipRefused, change_owner
from portal.features.ownership.forms import NoteForm, TakeForm
from portal.features.ownership.pages import may_change, owner_form, owner_of
from portal.web.auth.access import roles_required
from portal.web.auth.roles import STAFF

bp = Blueprint("ownership", __name__)


def _merchant(merchant_id: int) -> Merchant:
    return get_merchant(merchant_id) or abort(404)


def _summary(merchant: Merchant, anchor: str = "owner") -> ResponseReturnValue:
    return redirect(url_for("merchants.detail", merchant_id=merchant.id, _anchor=anchor))


@bp.route("/merchants/<int:merchant_id>/owner", methods=["GET", "POST"])
@roles_required(*STAFF)
def owner(merchant_id: int) -> ResponseReturnValue:
    """Give the merchant to someone else, with a note for them; errors beside the fields, the
    note kept."""
    merchant = _merchant(merchant_id)
    form = owner_form(merchant, current_user)
    if form.validate_on_submit():
        try:
            change_owner(merchant, form.change(), current_user)
        except OwnershipRefused as exc:
            form[exc.field].errors.append(str(exc))
            form.expected.data = str(merchant.owner_id or "")  # what is true now
        else:
            db.session.commit()
            new = owner_of(merchant)
            flash(f"{new.email} owns {merchant.name} now." if new
                  else f"Nobody owns {merchant.name} now.", "success")
            return _summary(merchant)
    status = 400 if request.method == "POST" else 200
    return render_template("ownership/owner.html", merchant=merchant, form=form,
                           owner=owner_of(merchant),
                           may_change=may_change(current_user, merchant)), status


@bp.post("/merchants/<int:merchant_id>/owner/take")
@roles_required(*STAFF)
def take(merchant_id: int) -> ResponseReturnValue:
    """Take a merchant nobody owns; whoever was first keeps it."""
    merchant = _merchant(merchant_id)
    if TakeForm().validate_on_submit():
        try:
            change_owner(merchant, Change(current_user.id, None), current_user)
        except OwnershipRefused as exc:
            flash(str(exc), "error")
        else:
            db.session.commit()
            flash(f"You own {merchant.name} now.", "success")
    return _summary(merchant)


@bp.route("/merchants/<int:merchant_id>/notes", methods=["GET", "POST"])
@roles_required(*STAFF)
def notes(merchant_id: int) -> ResponseReturnValue:
    """Every note on the merchant, newest first, and a new one (kept as typed when refused)."""
    merchant = _merchant(merchant_id)
    form = NoteForm()
    if form.validate_on_submit():
        add_note(merchant, form.text.data, current_user)
        db.session.commit()
        flash("The note was added.", "success")
        return _summary(merchant, "notes")
    status = 400 if request.method == "POST" else 200
    return render_template("ownership/notes.html", merchant=merchant, form=form,
                           notes=notes_of(merchant)), status
