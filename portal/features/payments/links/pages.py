"""The new-hold page's "Email the customer a payment link" button: the hold stored with its
link and emailed, then the hold's page; or the form again with its errors beside the fields."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, url_for
from flask.typing import ResponseReturnValue

from portal.core.config import current_settings
from portal.core.models.merchant import Merchant
from portal.domain.payments.links.sending import hold_by_link
from portal.domain.payments.service import Result
from portal.features.payments.forms import HoldForm
from portal.features.payments.pages import hold_page
from portal.gateway.shapes import FieldError
from portal.web.auth.access import current_actor

#: The new-hold form's button value that emails a link instead of opening the checkout here.
EMAIL_LINK = "email_link"


def email_new_hold(merchant: Merchant, form: HoldForm,
                   body: dict[str, Any]) -> ResponseReturnValue:
    """Store the hold ``body`` with its payment link and email it; the hold's page next."""
    sent = hold_by_link(current_settings(), merchant, body, current_actor())
    if sent.payment_id is not None:
        flash(sent.message, "success" if sent.ok else "error")
        return redirect(url_for("payments.detail", payment_id=sent.payment_id))
    form.show_errors([FieldError("", sent.message), *sent.errors])
    return hold_page(merchant, form, Result(False, sent.message))
