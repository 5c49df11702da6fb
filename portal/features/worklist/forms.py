"""The worklist's one form: a rejected merchant was told."""

from __future__ import annotations

from wtforms import HiddenField, SubmitField

from portal.web.form_base import PortalForm


class ToldForm(PortalForm):
    """The owner (or an admin) told the rejected merchant; ``back`` is the tab to return to."""

    back = HiddenField(default="mine")
    submit = SubmitField("The merchant was told")
