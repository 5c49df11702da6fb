"""Step 9's page: the status read from the gateway, the checklist and the status timeline."""

from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask.typing import ResponseReturnValue

from portal.auth import roles_required
from portal.auth.roles import STAFF
from portal.db import db
from portal.models.status_change import StatusSource
from portal.onboarding import service as onboarding
from portal.status.history import timeline
from portal.status.service import describe, gateway_name, read_status
from portal.wizard.pages import client

bp = Blueprint("status", __name__)


@bp.get("/merchants/<int:merchant_id>/status")
@roles_required(*STAFF)
def page(merchant_id: int) -> ResponseReturnValue:
    """Read the status now; show it with the checklist, outstanding documents and timeline."""
    merchant = onboarding.get_merchant(merchant_id) or abort(404)
    read = read_status(client(), merchant, StatusSource.POLL)
    db.session.commit()
    return render_template("status/page.html", merchant=merchant, read=read,
                           describe=describe, gateway_name=gateway_name(merchant),
                           timeline=timeline(merchant),
                           stepper=onboarding.stepper(merchant, onboarding.drafts_of(merchant)))
