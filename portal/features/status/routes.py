"""Step 9's page: the status read from the gateway, the checklist and the status timeline."""

from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask.typing import ResponseReturnValue

from portal.core.clients import current_onboarding_client
from portal.core.db import db
from portal.core.models.status_change import StatusSource
from portal.domain.onboarding import progress
from portal.domain.onboarding.drafts import drafts_of, get_merchant
from portal.domain.onboarding.pendencies import latest, pendencies
from portal.domain.onboarding.product_rows import product_rows
from portal.domain.onboarding.status_history import timeline
from portal.domain.onboarding.status_reads import describe, gateway_name, read_status
from portal.domain.payments.credentials import credentials_of
from portal.domain.payments.service import unavailable_reason
from portal.features.status.rfi_details import rfi_details
from portal.web.auth.access import current_actor, roles_required
from portal.web.auth.roles import STAFF

bp = Blueprint("status", __name__)


@bp.get("/merchants/<int:merchant_id>/status")
@roles_required(*STAFF)
def page(merchant_id: int) -> ResponseReturnValue:
    """Read the status now; show it with the checklist, outstanding documents, what the
    review asks for, the gateway's pendencies and the timeline."""
    merchant = get_merchant(merchant_id) or abort(404)
    read = read_status(current_onboarding_client(), merchant, StatusSource.POLL,
                       current_actor())
    db.session.commit()
    shown = pendencies(merchant)
    return render_template("status/page.html", merchant=merchant, read=read,
                           describe=describe, gateway_name=gateway_name(merchant),
                           timeline=timeline(merchant), pendencies=shown,
                           pendency=latest(shown), credentials=credentials_of(merchant),
                           products=product_rows(merchant),
                           payments_reason=unavailable_reason(merchant),
                           rfi=rfi_details(merchant),
                           stepper=progress.stepper(merchant, drafts_of(merchant)))
