"""The account page's form: how notices are emailed."""

from __future__ import annotations

from wtforms import RadioField, SelectChoice, SubmitField
from wtforms.validators import AnyOf, InputRequired

from portal.features.notifications.preferences import CHOICES
from portal.web.form_base import PortalForm

CHOOSE = "Choose how you want to be emailed."


class NoticeModeForm(PortalForm):
    """Each notice at once, or a daily digest (an unknown choice is refused in words)."""

    mode = RadioField("How should the portal email your notices?", validate_choice=False,
                      choices=[SelectChoice(k, v) for k, v in CHOICES.items()],
                      validators=[InputRequired(CHOOSE), AnyOf(list(CHOICES), message=CHOOSE)])
    submit = SubmitField("Save")
