"""Asking an admin to set up a merchant's payments, from its credentials page (added to the
payments blueprint): ops cannot save credentials, so they ask, and the admins are told
(``portal.domain.payments.setup_requests``)."""

from __future__ import annotations

from flask import flash, redirect, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.domain.payments import setup_requests
from portal.features.payments.forms import AskSetupForm
from portal.features.payments.pages import load_merchant
from portal.features.payments.routes import bp
from portal.web.auth.access import roles_required
from portal.web.auth.roles import STAFF


@bp.post("/merchants/<int:merchant_id>/payments/setup-request")
@roles_required(*STAFF)
def ask_setup(merchant_id: int) -> ResponseReturnValue:
    """Put the merchant's payments on every admin's worklist, once."""
    merchant = load_merchant(merchant_id)
    back = redirect(url_for("payments.credentials", merchant_id=merchant.id))
    if not AskSetupForm().validate_on_submit():
        flash("The request was not sent: the page had expired. Ask again.", "error")
        return back
    try:
        _, made = setup_requests.ask(merchant, current_user)
    except setup_requests.AskRefused as refused:
        flash(str(refused), "error")
        return back
    flash("The admins were asked to set up payments: you will get a notice when it is done."
          if made else "An admin was asked already: you will get a notice when it is done.",
          "success")
    return back
