"""The forms of the merchant page's "Asked of the merchant" panel."""

from __future__ import annotations

from wtforms import HiddenField, TextAreaField
from wtforms.validators import DataRequired, Length

from portal.web.form_base import PortalForm

#: The longest wording or reason (the refusal's column holds 500).
WORDS_MOST = 500


class WordsForm(PortalForm):
    """How one asked document is worded; empty fields go back to the defaults."""

    ask = HiddenField(validators=[DataRequired()])
    merchant_words = TextAreaField(
        "What the merchant reads", validators=[Length(max=WORDS_MOST, message=(
            f"Keep it to {WORDS_MOST} characters."))],
        description="Shown on the merchant's link as written (no translation). Empty: the "
                    "default wording, in the merchant's language.")
    ops_words = TextAreaField(
        "What ops read", validators=[Length(max=WORDS_MOST, message=(
            f"Keep it to {WORDS_MOST} characters."))],
        description="Only on this page, never on the merchant's link. Empty: the document's "
                    "name.")


class RefuseForm(PortalForm):
    """Refuse one of the merchant's uploads, with the reason they read."""

    reason = TextAreaField("Why, in words for the merchant", validators=[
        DataRequired(message="Say why, in words the merchant understands: they read it on "
                             "their link."),
        Length(max=WORDS_MOST, message=f"Keep the reason to {WORDS_MOST} characters.")])
