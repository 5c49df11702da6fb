"""The forms of ownership: a new owner (with a note), taking a merchant, a note."""

from __future__ import annotations

from wtforms import HiddenField, SelectChoice, SelectField, SubmitField, TextAreaField
from wtforms.validators import DataRequired, Length

from portal.core.models.user import User
from portal.domain.ownership.notes import MAX_LENGTH
from portal.domain.ownership.service import Change
from portal.web.form_base import PortalForm

#: The owner choice that means nobody (admins only).
NOBODY = ""
TOO_LONG = f"Keep the note under {MAX_LENGTH:,} characters."


def _stripped(value: str | None) -> str | None:
    return value.strip() if value else value


def _owner_id(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


class OwnerForm(PortalForm):
    """Who owns the merchant next, instead of whom the page showed, and a note for them."""

    # the choices are the active users; the service refuses anyone else in words
    owner = SelectField("New owner", validate_choice=False)
    expected = HiddenField()
    note = TextAreaField("A note for them (optional)", filters=[_stripped],
                         validators=[Length(max=MAX_LENGTH, message=TOO_LONG)],
                         render_kw={"rows": 4, "maxlength": MAX_LENGTH})
    submit = SubmitField("Change the owner")

    def offer(self, people: list[User], nobody: bool) -> None:
        """The people to choose from (and "Nobody" when ``nobody``)."""
        self.owner.choices = ([SelectChoice(NOBODY, "Nobody")] if nobody else []) + [
            SelectChoice(str(user.id), user.email) for user in people]

    def change(self) -> Change:
        """What was asked."""
        return Change(_owner_id(self.owner.data), _owner_id(self.expected.data),
                      self.note.data or "")


class TakeForm(PortalForm):
    """Take a merchant nobody owns (the page showed it unowned)."""

    submit = SubmitField("Take it")


class NoteForm(PortalForm):
    """A note on the merchant."""

    text = TextAreaField("Add a note", filters=[_stripped], validators=[
        DataRequired("Write the note first."), Length(max=MAX_LENGTH, message=TOO_LONG)],
        render_kw={"rows": 3, "maxlength": MAX_LENGTH})
    submit = SubmitField("Add the note")
