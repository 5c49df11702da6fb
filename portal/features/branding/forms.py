"""The branding settings form: names, accent colour (contrast checked) and logo (type, size)."""

from __future__ import annotations

from flask_wtf.file import FileField
from wtforms import BooleanField, Field, StringField, SubmitField
from wtforms.validators import Length, ValidationError

from portal.domain.branding.contrast import contrast_problem, parse_colour
from portal.domain.branding.logo import LOGO_TYPES, read_logo
from portal.web.form_base import PortalForm


class BrandingForm(PortalForm):
    """What sub-merchants see of the partner; every field may stay empty (the defaults)."""

    display_name = StringField("Partner name shown to merchants", validators=[
        Length(max=80, message="Keep the name under 80 characters.")])
    sender_name = StringField("Email sender name", validators=[
        Length(max=80, message="Keep the sender name under 80 characters.")])
    accent_colour = StringField("Accent colour")
    logo = FileField("Logo", render_kw={"accept": ",".join(LOGO_TYPES)})
    remove_logo = BooleanField("Remove the current logo")
    submit = SubmitField("Save branding")

    #: Filled by validate_logo: the accepted file's bytes and type.
    logo_data: bytes | None = None
    logo_type: str = ""

    def validate_accent_colour(self, field: Field) -> None:
        """A colour written as #rrggbb, dark enough for white text and for links on white."""
        if not (field.data or "").strip():
            field.data = ""
            return
        colour = parse_colour(field.data)
        if colour is None:
            raise ValidationError("Write the colour as a # and six hexadecimal digits, such as "
                                  "#1f4fbf (your design team's colour code).")
        problem = contrast_problem(colour)
        if problem:
            raise ValidationError(problem)
        field.data = colour

    def validate_logo(self, field: Field) -> None:
        """An image the portal serves: PNG, JPEG or WebP by content, within the size."""
        upload = field.data
        if upload is None or not getattr(upload, "filename", ""):
            return
        data, kind, problem = read_logo(upload.stream)
        if problem:
            raise ValidationError(problem)
        self.logo_data, self.logo_type = data, kind
