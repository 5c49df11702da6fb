"""The upload form: one per outstanding document (or re-upload) on the documents page."""

from __future__ import annotations

from flask_wtf.file import FileField, FileRequired
from wtforms import HiddenField, SelectChoice, SelectField

from portal.core.labels import Kind, label
from portal.domain.documents.service import Slot
from portal.web.form_base import PortalForm


class UploadForm(PortalForm):
    """One file for one slot; the type must be one the slot accepts."""

    slot = HiddenField()
    docType = SelectField("Document type")
    file = FileField("File", validators=[FileRequired("Choose a file to upload.")],
                     description="PDF, JPEG or PNG.")

    def offer(self, slot: Slot) -> UploadForm:
        """Limit the type choices to what ``slot`` accepts; ids named after the slot."""
        self.slot.data = slot.key
        self.docType.choices = [SelectChoice(t, label(t, Kind.DOCUMENT)) for t in slot.types]
        for field in self:  # one form per slot on the page: ids must differ, names stay
            field.id = f"{slot.key.lower()}-{field.name}"
            field.label.field_id = field.id
        return self
