"""The checklist's two buttons, each a form for its CSRF token."""

from __future__ import annotations

from wtforms import SubmitField

from portal.web.form_base import PortalForm


class RunChecksForm(PortalForm):
    """Run every go-live check now."""

    submit = SubmitField("Run the checks")


class RegisterWebhookForm(PortalForm):
    """Register this portal's onboarding webhook at the gateway."""

    submit = SubmitField("Register the webhook")
