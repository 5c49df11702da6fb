"""The merchant answers what is asked on their link: one document at a time, through the
documents step's checks, kept for ops' review (the link's token opens this merchant only).

Imported by ``portal.app.blueprints`` so its route joins the verification blueprint.
"""

from __future__ import annotations

from flask import make_response, redirect, request, url_for
from flask.typing import ResponseReturnValue

from portal.core.config import current_settings
from portal.domain.asks import service as asks_service
from portal.domain.onboarding import merchant_links as links
from portal.features.verification.ask_forms import MerchantUploadForm
from portal.features.verification.merchant_routes import merchant_view, opened, partner_name
from portal.features.verification.routes import bp
from portal.web.auth.access import current_actor, public
from portal.web.uploads import reads_oversize_uploads

#: Where the page lists what is asked.
ANCHOR = "#asks-heading"


@bp.post("/verify/<int:merchant_id>/documents")
@reads_oversize_uploads
@public
def merchant_upload(merchant_id: int) -> ResponseReturnValue:
    """One asked document from the merchant: taken, it waits for ops' review and the page
    says so; refused, the page again with why beside the file (400). CSRF-checked."""
    token = request.args.get("token", "")
    merchant, link = opened(merchant_id, token)
    posted, partner = MerchantUploadForm(), partner_name()
    ask = next((a for a in asks_service.asks_of(merchant, current_settings().secret_key,
                                                partner)
                if a.ref == posted.ask.data and a.uploadable), None)
    back = url_for("verification.merchant_page", merchant_id=merchant.id, token=token) + ANCHOR
    if ask is None:  # no longer asked, or already sent: the page as it stands now
        return redirect(back, 303)
    if posted.offer(ask, partner).validate_on_submit():
        upload = posted.file.data
        error = asks_service.receive(current_settings(), merchant, link, ask,
                                     posted.type_index(), upload.filename or "", upload.stream,
                                     current_actor(links.MERCHANT))
        if not error:
            return redirect(back, 303)
        posted.file.errors = [*posted.file.errors, error]
    response = make_response(merchant_view(merchant, token, posted=posted))
    response.status_code = 400
    return response
