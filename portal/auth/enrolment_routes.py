"""The authenticator page: enrol an app (QR code shown until confirmed), then recovery codes."""

from __future__ import annotations

from flask import render_template
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal import clock
from portal.audit import record
from portal.auth import mfa, recovery_codes, totp
from portal.auth.forms import EnrolmentForm
from portal.auth.routes import bp
from portal.config import current_settings
from portal.db import db

ENROLMENT_FAILED = ("That code is not right. Check that the app's clock is correct and type the "
                    "6 digits it shows now.")


@bp.route("/account/authenticator", methods=["GET", "POST"])
def enrol() -> ResponseReturnValue:
    """Show the QR code of a pending secret and turn it on with a first code; once on, show
    how many recovery codes are left."""
    if current_user.has_totp:
        return render_template("auth/authenticator.html",
                               left=recovery_codes.unused_count(current_user.id))
    form = EnrolmentForm()
    if form.validate_on_submit() and current_user.totp_secret:
        codes = mfa.confirm_enrolment(current_user, form.code.data, clock.utcnow())
        if codes is not None:
            record("user.mfa_enrol")
            db.session.commit()
            return render_template("auth/recovery_codes.html", codes=codes)
        form.code.errors.append(ENROLMENT_FAILED)
    secret = current_user.totp_secret or mfa.start_enrolment(current_user)
    db.session.commit()
    uri = totp.provisioning_uri(secret, current_user.email)
    return render_template("auth/enrol.html", form=form, secret=secret,
                           qr_code=totp.qr_code_data_uri(uri),
                           required=mfa.required(current_user, current_settings()))
