"""The forms of a merchant's pause page: pause, deactivate (a reason from the list and a note),
and lift (a note)."""

from __future__ import annotations

from typing import Any

from wtforms import SelectChoice, SelectField, TextAreaField
from wtforms.validators import DataRequired, Length

from portal.core.models.merchant_stop import StopKind
from portal.domain.pausing.reasons import REASONS
from portal.web.form_base import PortalForm

NOTE_MAX = 1000


def _note(text: str) -> TextAreaField:
    return TextAreaField(text, validators=[Length(max=NOTE_MAX, message=(
        f"Keep the note to {NOTE_MAX} characters."))])


class StopForm(PortalForm):
    """A pause or a deactivation: why (from the list) and a note."""

    reason = SelectField("Reason", validators=[DataRequired(message="Choose a reason.")])
    note = _note("Note (what happened, who asked; it is kept in the audit trail)")

    def __init__(self, kind: StopKind, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, prefix=kind.value, **kwargs)
        self.reason.choices = [SelectChoice("", "Choose a reason"),
                               *(SelectChoice(code, words)
                                 for code, words in REASONS[kind].items())]


class LiftForm(PortalForm):
    """Lift a pause or a deactivation."""

    note = _note("Note (why it can be lifted now)")
