"""The webhook endpoints' forms: a new endpoint (its address, what it is, the events it wants),
and the buttons that rotate a secret, disable an endpoint or send an event again."""

from __future__ import annotations

from wtforms import Field, SelectChoice, StringField, SubmitField
from wtforms.validators import DataRequired, Length, ValidationError

from portal.core.config import current_settings
from portal.domain.partner_events.catalogue import EVENT_WORDS
from portal.domain.partner_events.endpoints import (
    DESCRIPTION_MAX,
    URL_MAX,
    EndpointRefused,
    checked_url,
)
from portal.web.form_base import MultiCheckboxField, PortalForm


class NewEndpointForm(PortalForm):
    """A new endpoint of a partner's software."""

    url = StringField("Address (URL)", validators=[
        DataRequired("Give the address the partner's software takes webhooks at."),
        Length(max=URL_MAX, message=f"Keep the address under {URL_MAX} characters.")],
        render_kw={"maxlength": URL_MAX, "inputmode": "url", "autocomplete": "off"})
    description = StringField("What it is (optional)", validators=[
        Length(max=DESCRIPTION_MAX, message=f"Keep it under {DESCRIPTION_MAX} characters.")],
        render_kw={"maxlength": DESCRIPTION_MAX})
    event_types = MultiCheckboxField("Events to send", choices=[
        SelectChoice(type_.value, words) for type_, words in EVENT_WORDS.items()],
        validators=[DataRequired("Choose at least one event to send there.")])
    submit = SubmitField("Add endpoint")

    def validate_url(self, field: Field) -> None:
        """The address's own rule (https, public addresses only), said beside it even when
        another field is wrong too."""
        try:
            checked_url(field.data or "", current_settings().website_check_allow_loopback)
        except EndpointRefused as exc:
            raise ValidationError(exc.message) from None


class ButtonForm(PortalForm):
    """One button's post (the CSRF token only): rotate, disable, send again."""
