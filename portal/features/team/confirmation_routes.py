"""The page that confirms a second administrator the only one asked for, opened from the link
emailed to ADMIN_CONFIRMATION_EMAIL without signing in
(``portal.features.team.admin_confirmation``).

The app-wide CSRFProtect checks the POST's token before the view runs.
"""

from __future__ import annotations

from flask import render_template, request
from flask.typing import ResponseReturnValue

from portal.core.config import current_settings
from portal.features.team import admin_confirmation
from portal.features.team.forms import ConfirmForm
from portal.features.team.routes import bp
from portal.web.auth.access import public

#: Every page of a link that does not work: gone, as for other emailed links.
REFUSED = 410


@bp.route("/team/confirm-admin/<int:request_id>", methods=["GET", "POST"])
@public
def confirm_admin(request_id: int) -> ResponseReturnValue:
    """Who asks to make whom an administrator, and why; its button confirms it, once."""
    settings, token, form = current_settings(), request.args.get("token", ""), ConfirmForm()
    if request.method == "POST" and form.validate_on_submit() and form.confirmed.data == "yes":
        decision = admin_confirmation.confirm(settings, request_id, token)
        return (render_template("team/confirm_admin.html", decision=decision),
                200 if decision.ok else REFUSED)
    found = admin_confirmation.opened(settings, request_id, token)
    return (render_template("team/confirm_admin.html", held=found.request, form=form,
                            refusal=found.refusal), 200 if found.request else REFUSED)
