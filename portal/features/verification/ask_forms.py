"""The merchant's upload of one asked document, on their link's page, in their language."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf.file import FileField, FileRequired
from wtforms import HiddenField, SelectChoice, SelectField

from portal.domain.asks.service import Ask
from portal.domain.asks.wording import default_merchant_words
from portal.web.form_base import PortalForm


class MerchantUploadForm(PortalForm):
    """One file for one ask, named by its reference; ``kind`` picks among the documents that
    satisfy it (by position: the page names no document code)."""

    ask = HiddenField()
    kind = SelectField(_l("Which document you send"), validate_choice=False, default="0")
    file = FileField(_l("Your file"),
                     validators=[FileRequired(_l("Choose a file to upload."))])

    def offer(self, ask: Ask, partner: str) -> MerchantUploadForm:
        """Fit the form to ``ask``: its reference, its choices, ids named after it."""
        self.ask.data = ask.ref
        self.kind.choices = [SelectChoice(str(number), default_merchant_words(kind, partner))
                             for number, kind in enumerate(ask.types)]
        for field in self:  # one form per ask on the page: ids must differ, names stay
            field.id = f"ask-{ask.ref}-{field.name}"
            field.label.field_id = field.id
        return self

    def type_index(self) -> int:
        """The position of the document chosen among the ask's (0 when none was chosen)."""
        value = self.kind.data or "0"
        return int(value) if value.isdigit() else 0
