"""The go-live checklist page (admins): run the checks, register the webhook."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.core.clients import current_onboarding_client
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.user import Role
from portal.domain.audit.service import Actor, record
from portal.domain.golive.checks import (
    DEFAULT_PARTNER_NAME,
    go_live_checks,
    merchants_read_the_default,
)
from portal.domain.golive.whitelist import webhook_url, whitelist
from portal.features.golive.forms import RegisterWebhookForm, RunChecksForm
from portal.gateway.errors import GatewayError
from portal.web.auth.access import roles_required

bp = Blueprint("golive", __name__, url_prefix="/admin/go-live")


@bp.route("/", methods=["GET", "POST"])
@roles_required(Role.ADMIN)
def checklist() -> ResponseReturnValue:
    """The checklist; a POST runs every check (the test email goes to the admin)."""
    settings = current_settings()
    form = RunChecksForm()
    checks = None
    if form.validate_on_submit():
        checks = go_live_checks(settings, current_user.email)
        record("golive.check", actor=Actor.of(current_user),
               outcome="ok" if all(c.passed for c in checks) else "failed",
               detail={"passed": [c.key for c in checks if c.passed],
                       "to_do": [c.key for c in checks if not c.passed]})
        db.session.commit()
    return render_template("golive/checklist.html", form=form, checks=checks,
                           webhook_form=RegisterWebhookForm(), whitelist=whitelist(settings),
                           webhook_url=webhook_url(settings), settings=settings,
                           partner_unnamed=merchants_read_the_default(settings),
                           default_partner_name=DEFAULT_PARTNER_NAME), (
        400 if request.method == "POST" and checks is None else 200)


@bp.post("/webhook")
@roles_required(Role.ADMIN)
def register_webhook() -> ResponseReturnValue:
    """Register this portal's onboarding webhook under GATEWAY_PARTNER_MID."""
    settings = current_settings()
    url = webhook_url(settings)
    if RegisterWebhookForm().validate_on_submit():
        try:
            current_onboarding_client().register_webhook(settings.partner_mid, url)
        except GatewayError as exc:
            record("golive.webhook", actor=Actor.of(current_user), outcome="failed",
                   detail={"url": url})
            flash(f"The gateway did not register {url}: {exc}", "error")
        else:
            record("golive.webhook", actor=Actor.of(current_user), detail={"url": url})
            flash(f"The gateway now sends onboarding events to {url}. Run the checks again.",
                  "success")
        db.session.commit()
    return redirect(url_for(".checklist"))
