"""The authenticator page: enrol an app (its key shown once, to this session only), then
recovery codes."""

from __future__ import annotations

from flask import abort, render_template, request
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.domain.audit.service import record
from portal.domain.users import mfa, recovery_codes, totp
from portal.web.auth.access import current_actor
from portal.web.auth.forms import EnrolmentForm
from portal.web.auth.routes import bp
from portal.web.auth.sessions import session_token

#: The button that asks for a new key in place of the one shown.
NEW_KEY = "new_key"
ENROLMENT_FAILED = ("That code is not right. Check that the app's clock is correct and type the "
                    "6 digits it shows now.")


@bp.route("/account/authenticator", methods=["GET", "POST"])
def enrol() -> ResponseReturnValue:
    """Show a key (QR code) to this session alone, once: a reload or another tab shows none
    (the app has it; "Show a new key" replaces it). A code turns it on and ends the user's
    other sessions. Once on, show how many recovery codes are left."""
    if current_user.has_totp:
        return render_template("auth/authenticator.html",
                               left=recovery_codes.unused_count(current_user.id))
    token = session_token() or abort(403)
    form = EnrolmentForm()
    if request.method == "POST" and request.form.get("action") != NEW_KEY:
        if form.validate_on_submit():
            codes = mfa.confirm_enrolment(current_user, token, form.code.data, clock.utcnow())
            if codes is not None:
                record("user.mfa_enrol", actor=current_actor())
                db.session.commit()
                return render_template("auth/recovery_codes.html", codes=codes)
            form.code.errors.append(ENROLMENT_FAILED)
        return _page(form)
    if request.method == "GET" and mfa.enrolment_started(token):
        return _page(form)
    secret = mfa.start_enrolment(current_user, token, clock.utcnow())
    db.session.commit()
    return _page(form, secret)


def _page(form: EnrolmentForm, secret: str | None = None) -> str:
    uri = totp.provisioning_uri(secret, current_user.email) if secret else None
    return render_template("auth/enrol.html", form=form, secret=secret,
                           qr_code=totp.qr_code_data_uri(uri) if uri else None,
                           required=mfa.required(current_user, current_settings()))
