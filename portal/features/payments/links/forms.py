"""The payment link's forms: the customer's one button, and the staff's resend and cancel."""

from __future__ import annotations

from wtforms import BooleanField
from wtforms.validators import InputRequired

from portal.web.form_base import PortalForm


class ContinueForm(PortalForm):
    """The customer's "Continue to the secure payment page": its CSRF token only."""


class ResendForm(PortalForm):
    """Email the customer a new link: its CSRF token only (nothing is lost by resending)."""


class CancelForm(PortalForm):
    """Withdraw the link, once its box is ticked."""

    confirm = BooleanField("I confirm: cancel the link; the customer can no longer pay with it",
                           validators=[InputRequired("Tick the box to cancel the link.")])
