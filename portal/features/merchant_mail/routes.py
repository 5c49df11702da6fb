"""Pages of merchant mail: "Email the merchant" for staff, the template editor for admins.

The app-wide CSRFProtect checks every POST's token before these views run."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue

from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.user import Role
from portal.domain.merchant_mail import templates
from portal.domain.merchant_mail.delivery import DeliveryError, email_link
from portal.domain.onboarding.drafts import get_merchant
from portal.features.merchant_mail.forms import TemplateForm
from portal.web.auth.access import current_actor, roles_required
from portal.web.auth.roles import STAFF

bp = Blueprint("merchant_mail", __name__)


@bp.post("/merchants/<int:merchant_id>/verification/email")
@roles_required(*STAFF)
def email_merchant(merchant_id: int) -> ResponseReturnValue:
    """Email the signatory a fresh 24-hour verification link."""
    merchant = get_merchant(merchant_id) or abort(404)
    try:
        shown = email_link(current_settings(), merchant, "merchant_link", current_actor())
    except DeliveryError as exc:
        flash(str(exc), "error")
    else:
        flash(f"A verification link (valid 24 hours) was emailed to {shown}.", "success")
    return redirect(url_for("verification.page", merchant_id=merchant.id))


@bp.get("/admin/emails")
@roles_required(Role.ADMIN)
def index() -> ResponseReturnValue:
    """The emails (to merchants, and to the team) and the text in force for each."""
    return render_template("merchant_mail/index.html", texts=templates.all_current(),
                           sandbox=current_settings().gateway_is_sandbox)


@bp.route("/admin/emails/<key>", methods=["GET", "POST"])
@roles_required(Role.ADMIN)
def edit(key: str) -> ResponseReturnValue:
    """Edit one email's subject and body; placeholders are checked before saving."""
    if key not in templates.DEFAULTS:
        abort(404)
    text = templates.current(key)
    form = TemplateForm(data={"subject": str(text.subject), "body": str(text.body)})
    if form.validate_on_submit():
        try:
            templates.save(key, form.subject.data, form.body.data, current_actor())
        except templates.TemplateRefused as exc:
            form[exc.field].errors.append(str(exc))
        else:
            db.session.commit()
            flash(f"The email '{text.title}' was saved.", "success")
            return redirect(url_for("merchant_mail.index"))
    return render_template("merchant_mail/edit.html", form=form, text=text,
                           placeholders=text.placeholders)


@bp.post("/admin/emails/<key>/restore")
@roles_required(Role.ADMIN)
def restore(key: str) -> ResponseReturnValue:
    """Go back to the built-in text of one email."""
    if key not in templates.DEFAULTS:
        abort(404)
    templates.restore_default(key, current_actor())
    db.session.commit()
    flash("The built-in text applies again.", "success")
    return redirect(url_for("merchant_mail.index"))
