"""The form of merchant mail: a template's subject and body."""

from __future__ import annotations

from wtforms import StringField, SubmitField, TextAreaField
from wtforms.validators import DataRequired, Length

from portal.web.form_base import PortalForm


class TemplateForm(PortalForm):
    """An email's subject and body, placeholders included."""

    subject = StringField("Subject", validators=[
        DataRequired("Write a subject line."),
        Length(max=200, message="Keep the subject under 200 characters.")])
    body = TextAreaField("Body", validators=[
        DataRequired("Write the text of the email."),
        Length(max=5000, message="Keep the email under 5000 characters.")],
        render_kw={"rows": 14})
    submit = SubmitField("Save template")

